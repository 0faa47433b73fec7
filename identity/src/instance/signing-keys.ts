import { KeyObject } from 'node:crypto';
import {
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';
import type { Database, Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import {
  insertFirstSigningKey,
  insertNextSigningKey,
  publishedSigningKeys,
  type SigningKeyRow,
  type StoredSigningKey,
} from '../store/signing-keys.ts';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** The private key as node:crypto signs with it, made once rather than per token. */
  signer: KeyObject;
  /** Every session token's protected header, base64url-encoded once: `{"alg":"RS256","kid":…,"typ":"JWT"}`. */
  encodedHeader: string;
}

interface RingKey {
  key: SigningKey;
  signsFrom: Date;
  retireAt: Date | null;
}

/** How often a running server reads the keys again, to publish a key `keys rotate` added elsewhere. */
export const SIGNING_KEYS_REFRESH_MS = 30_000;

/**
 * The instance's session-token signing keys (RS256, RSA-2048 with e=65537: what @clerk/backend's
 * networkless `jwtKey` path understands). One signs — the newest whose `signs_from` has come — and every
 * key not yet retired is published in the JWKS and verifies, so a rotation (`keys rotate`,
 * docs/operations.md) publishes the new key before it signs and keeps the old one until its tokens expire.
 */
export class SigningKeyRing {
  private keys: RingKey[] = [];
  private timer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly db: Queryable,
    private readonly clock: () => Date,
  ) {}

  /** The instance's keys, generating the first one on first start. */
  static async load(db: Database, clock: () => Date = () => new Date()): Promise<SigningKeyRing> {
    const ring = new SigningKeyRing(db, clock);
    await ring.reload();
    if (ring.keys.length === 0) {
      await insertFirstSigningKey(db, await generateSigningKeyRow());
      await ring.reload();
    }
    return ring;
  }

  /** Reads the published keys again (a key another process added, one retired meanwhile). */
  async reload(): Promise<void> {
    const rows = await publishedSigningKeys(this.db, this.clock());
    const known = new Map(this.keys.map((k) => [k.key.kid, k.key]));
    this.keys = await Promise.all(
      rows.map(async (row: StoredSigningKey) => ({
        key: known.get(row.kid) ?? (await hydrate(row.kid, row.private_jwk, row.public_jwk)),
        signsFrom: new Date(row.signs_from),
        retireAt: row.retire_at ? new Date(row.retire_at) : null,
      })),
    );
  }

  /** Reloads every `ms` until `stop` (the timer does not keep the process alive). */
  startRefresh(ms = SIGNING_KEYS_REFRESH_MS, onError: (err: Error) => void = () => {}): void {
    this.timer ??= setInterval(() => this.reload().catch(onError), ms);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The key that signs at `now`: the newest whose `signs_from` has come (the oldest if none has). */
  current(now: Date = this.clock()): SigningKey {
    let signing = this.keys[0]!;
    for (const k of this.keys) if (k.signsFrom <= now) signing = k;
    return signing.key;
  }

  /** The keys published at `now`: every key not retired, the one signing first. */
  published(now: Date = this.clock()): SigningKey[] {
    const current = this.current(now);
    const live = this.keys.filter((k) => !k.retireAt || k.retireAt > now).map((k) => k.key);
    return [current, ...live.filter((k) => k !== current)];
  }

  /** The published key `kid` names, if any. */
  byKid(kid: string | undefined, now: Date = this.clock()): SigningKey | undefined {
    return this.published(now).find((k) => k.kid === kid);
  }

  /**
   * For jose's `jwtVerify`: the public key of the published key the token's `kid` names; a token without a
   * kid is tried against the signing key, one naming an unknown or retired key fails.
   */
  readonly verificationKey = async (header: JWSHeaderParameters): Promise<CryptoKey> => {
    const key = header.kid === undefined ? this.current() : this.byKid(header.kid);
    if (!key) throw new Error('unknown signing key');
    return publicKeyOf(key);
  };
}

/** A fresh RS256 key pair as stored. */
export async function generateSigningKeyRow(): Promise<SigningKeyRow> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', {
    modulusLength: 2048,
    extractable: true,
  });
  const kid = newId('ins');
  return {
    kid,
    private_jwk: await exportJWK(privateKey),
    public_jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
  };
}

/**
 * `keys rotate`: a new key, published now, signing `activateAfterSeconds` from now; the keys before it leave
 * the JWKS `keepOldSeconds` after the new one starts signing. Answers the new key's kid and times.
 */
export async function rotateSigningKey(
  db: Database,
  opts: { activateAfterSeconds: number; keepOldSeconds: number; now: Date },
): Promise<{ kid: string; signsFrom: Date; oldRetireAt: Date }> {
  const row = await generateSigningKeyRow();
  const signsFrom = new Date(opts.now.getTime() + opts.activateAfterSeconds * 1000);
  const oldRetireAt = new Date(signsFrom.getTime() + opts.keepOldSeconds * 1000);
  await db.transaction((tx) => insertNextSigningKey(tx, row, signsFrom, oldRetireAt, opts.now));
  return { kid: row.kid, signsFrom, oldRetireAt };
}

async function hydrate(kid: string, privateJwk: JWK, publicJwk: JWK): Promise<SigningKey> {
  const privateKey = (await importJWK(privateJwk, 'RS256')) as CryptoKey;
  const encodedHeader = Buffer.from(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' })).toString('base64url');
  return { kid, privateKey, publicJwk, signer: KeyObject.from(privateKey), encodedHeader };
}

/** The JWKS: every published key's public half. */
export function jwks(keys: readonly SigningKey[]) {
  return {
    keys: keys.map((key) => {
      const { kid, kty, n, e } = key.publicJwk;
      return { use: 'sig', kty, kid, alg: 'RS256', n, e };
    }),
  };
}

const publicKeys = new WeakMap<SigningKey, Promise<CryptoKey>>();

/** The key's public half as jose verifies with it, imported once per key. */
export function publicKeyOf(key: SigningKey): Promise<CryptoKey> {
  let found = publicKeys.get(key);
  if (!found) publicKeys.set(key, (found = importJWK(key.publicJwk, 'RS256') as Promise<CryptoKey>));
  return found;
}
