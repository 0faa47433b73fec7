import { randomToken, sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import type { IdentityConfig } from '../config.ts';
import { ClerkError } from '../errors.ts';
import { insertTestingToken, liveTestingTokenExists } from '../store/testing-tokens.ts';

/**
 * Testing tokens, as Clerk's Backend API has them: what `@clerk/testing` fetches (`testingTokens.
 * createTestingToken`) and then adds as `__clerk_testing_token` to the Frontend API requests of an
 * automated browser, so that bot protection (the captcha) does not stop the test suite.
 *
 * Development instances only. Hosted Clerk has also accepted them on production instances since August
 * 2025; here a production instance refuses to make them and ignores the parameter, since a leaked token
 * would switch off the captcha of real sign-ups for its lifetime. Only the token's SHA-256 is stored.
 */

/** Short-lived, as Clerk's: a test run fetches a fresh one at its start. */
export const TESTING_TOKEN_TTL_SECONDS = 3600;
/** Tokens are 43 base64url characters; anything far longer is not one of ours and is not looked up. */
const MAX_TOKEN_LENGTH = 200;

export const testingTokensUnavailable = () =>
  new ClerkError(
    403,
    'feature_not_enabled',
    'Testing tokens are off',
    'Testing tokens are only available in development instances.',
  );

export async function createTestingToken(
  tx: Queryable,
  config: Pick<IdentityConfig, 'mode'>,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  if (config.mode !== 'development') throw testingTokensUnavailable();
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + TESTING_TOKEN_TTL_SECONDS * 1000);
  await insertTestingToken(tx, { tokenHash: sha256(token), expiresAt, now });
  return { token, expiresAt };
}

/**
 * Whether a request's `__clerk_testing_token` waives bot protection: a live token of this instance, on a
 * development instance. Anything else (absent, repeated, unknown, expired) waives nothing and is not an
 * error: the request is then checked as any other.
 */
export async function waivesBotProtection(
  db: Queryable,
  config: Pick<IdentityConfig, 'mode'>,
  value: string | string[] | undefined,
  now: Date,
): Promise<boolean> {
  if (config.mode !== 'development') return false;
  if (typeof value !== 'string' || !value || value.length > MAX_TOKEN_LENGTH) return false;
  return liveTestingTokenExists(db, sha256(value), now);
}
