import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from '../db/database.ts';
import { randomBase62 } from '../ids.ts';
import { constantTimeEqual, randomToken, sha256 } from '../crypto/secrets.ts';
import type { IdentityConfig, InstanceKeysKind } from '../config.ts';
import { codePepperOr, storeSecretKeyHash } from '../store/instance-secrets.ts';

export interface InstanceKeys {
  publishableKey: string;
  /** The Backend API secret key, known to this process so the product server can use it. */
  secretKey: string;
  /** Pepper for one-time code hashes. */
  codePepper: string;
  verifySecretKey(candidate: string): boolean;
}

/**
 * `pk_live_` + base64(`<host>$`) for production keys: clerk-js then identifies the browser by our HttpOnly
 * `__client` cookie. `pk_test_` for development keys: clerk-js asks `/dev_browser` for a token instead.
 */
export function publishableKeyFor(frontendApiHost: string, kind: InstanceKeysKind = 'production'): string {
  if (!frontendApiHost.includes('.'))
    throw new Error(`frontend API host "${frontendApiHost}" must contain a dot`);
  const prefix = kind === 'production' ? 'pk_live_' : 'pk_test_';
  return `${prefix}${Buffer.from(`${frontendApiHost}$`).toString('base64')}`;
}

export async function loadInstanceKeys(db: Database, config: IdentityConfig): Promise<InstanceKeys> {
  const secretKey = config.secretKey ?? readOrCreateSecretKeyFile(config.secretKeyFile);
  const secretHash = sha256(secretKey);
  await storeSecretKeyHash(db, secretHash);
  const codePepper = await codePepperOr(db, randomToken(32));
  return {
    publishableKey: publishableKeyFor(config.frontendApiHost, config.instanceKeys),
    secretKey,
    codePepper,
    verifySecretKey: (candidate) => constantTimeEqual(sha256(candidate), secretHash),
  };
}

function readOrCreateSecretKeyFile(file: string | null): string {
  if (!file) return `sk_live_${randomBase62(40)}`;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = `sk_live_${randomBase62(40)}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

/**
 * The instance secret key as configured (IDENTITY_SECRET_KEY, or the key file under DATA_DIR), without
 * making one: null when there is none yet.
 */
export function configuredSecretKey(
  config: Pick<IdentityConfig, 'secretKey' | 'secretKeyFile'>,
): string | null {
  if (config.secretKey) return config.secretKey;
  if (config.secretKeyFile && existsSync(config.secretKeyFile)) {
    return readFileSync(config.secretKeyFile, 'utf8').trim() || null;
  }
  return null;
}

/** A new instance secret key, in the form the server makes on first start. */
export const newInstanceSecretKey = () => `sk_live_${randomBase62(40)}`;
