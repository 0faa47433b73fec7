import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { sha256 } from '../crypto/secrets.ts';
import type { CaptchaSettings } from './captcha-settings.ts';

/**
 * The self-hosted captcha: an ALTCHA proof of work (altcha-lib). The server hands out a challenge signed
 * with a key only it knows (derived from the instance's code pepper, shared by every instance on the
 * database); the browser searches the counter that gives the challenge's key prefix (one SHA-256 per
 * try); the answer comes back as the captcha token and is verified by its signatures, then spent once
 * (store/captcha.ts). No outside service is involved.
 */

const ALGORITHM = 'SHA-256';
/** A token is a small JSON in base64: anything longer is not one of ours. */
export const MAX_TOKEN_LENGTH = 4096;

export interface ProofOfWorkKeys {
  signature: string;
  keySignature: string;
}

/** The HMAC keys challenges are signed with, derived from the instance's secret pepper. */
export function proofOfWorkKeys(pepper: string): ProofOfWorkKeys {
  const derive = (label: string) => createHmac('sha256', pepper).update(label).digest('hex');
  return { signature: derive('captcha:pow:challenge'), keySignature: derive('captcha:pow:key') };
}

/** A new challenge (what `GET /v1/client/captcha_challenge` answers), expiring by our clock. */
export async function newProofOfWorkChallenge(
  settings: CaptchaSettings['proofOfWork'],
  keys: ProofOfWorkKeys,
  now: Date,
): Promise<Challenge> {
  // Expiry is ours (signed as data), not altcha-lib's, so the instance's clock decides it.
  const exp = Math.floor(now.getTime() / 1000) + settings.expiresSeconds;
  return createChallenge({
    algorithm: ALGORITHM,
    cost: 1,
    counter: randomInt(settings.maxNumber),
    deriveKey,
    data: { exp },
    hmacSignatureSecret: keys.signature,
    hmacKeySignatureSecret: keys.keySignature,
  });
}

export type ProofOfWorkVerdict =
  { ok: true; spendKey: string; expireAt: Date } | { ok: false; reason: 'malformed' | 'expired' | 'invalid' };

/**
 * Checks a token: its challenge signed by us, unexpired, and the solution's key the one the challenge was
 * made for. Single use is the caller's (`spendKey`, with the challenge's expiry).
 */
export async function verifyProofOfWorkToken(
  token: string,
  keys: ProofOfWorkKeys,
  now: Date,
): Promise<ProofOfWorkVerdict> {
  const payload = decodeToken(token);
  if (!payload) return { ok: false, reason: 'malformed' };
  const { challenge, solution } = payload;
  const exp = challenge.parameters.data?.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return { ok: false, reason: 'malformed' };
  try {
    const result = await verifySolution({
      challenge,
      solution,
      deriveKey,
      hmacSignatureSecret: keys.signature,
      hmacKeySignatureSecret: keys.keySignature,
    });
    if (!result.verified) return { ok: false, reason: 'invalid' };
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  // Checked after the signature: only our own challenges' expiry is believed.
  if (exp * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, spendKey: sha256(`pow:${challenge.signature}`), expireAt: new Date(exp * 1000) };
}

/** base64(JSON `{challenge: {parameters, signature}, solution: {counter, derivedKey}}`), or null. */
function decodeToken(token: string): { challenge: Challenge; solution: Solution } | null {
  if (token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(token)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.challenge) || !isRecord(value.solution)) return null;
  const { parameters, signature } = value.challenge;
  const { counter, derivedKey } = value.solution;
  if (!isRecord(parameters) || typeof signature !== 'string') return null;
  if (typeof counter !== 'number' || typeof derivedKey !== 'string') return null;
  if (parameters.algorithm !== ALGORITHM || parameters.cost !== 1) return null;
  if (!isRecord(parameters.data)) return null;
  return {
    challenge: { parameters: parameters as unknown as Challenge['parameters'], signature },
    solution: { counter, derivedKey },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
