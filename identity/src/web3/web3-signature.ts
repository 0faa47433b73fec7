import { randomBytes } from 'node:crypto';
import { isAddressEqual, recoverMessageAddress, type Hex } from 'viem';
import { errors, type ClerkError } from '../errors.ts';
import type { VerificationState } from '../store/rows.ts';

/** How long a nonce may be signed: a wallet prompt is answered in seconds, a minute or two at most. */
export const WEB3_NONCE_LIFETIME_MS = 10 * 60 * 1000;

/** A 65-byte secp256k1 signature (r, s, v) as personal_sign returns it. */
const SIGNATURE_RE = /^0x[0-9a-fA-F]{130}$/;

/**
 * A new verification for `strategy`: its `message` is a fresh random nonce (what the wallet signs with
 * personal_sign, EIP-191). It lives on the one sign-in, sign-up or profile wallet it was made for, and
 * the next prepare replaces it: a nonce is good for that record only.
 */
export function newWeb3Verification(strategy: string, now: Date): VerificationState {
  return {
    status: 'unverified',
    strategy,
    attempts: 0,
    expire_at: now.getTime() + WEB3_NONCE_LIFETIME_MS,
    message: randomBytes(32).toString('base64url'),
  };
}

export type Web3SignatureCheck =
  | { ok: true; verification: VerificationState }
  | { ok: false; verification: VerificationState | null; error: ClerkError };

/**
 * Whether `signature` is the signature by `address` of the nonce of `prepared`, made for `strategy`.
 * Each nonce is attempted once: right or wrong, it is spent (a wrong signature leaves a failed
 * verification, with no nonce). A malformed signature is refused before, spending nothing (422).
 */
export async function checkWeb3Signature(input: {
  prepared: VerificationState | null;
  strategy: string;
  signature: string | undefined;
  address: string;
  now: Date;
}): Promise<Web3SignatureCheck> {
  const { prepared, strategy, signature, address, now } = input;
  if (signature === undefined) throw errors.paramMissing('signature');
  if (!SIGNATURE_RE.test(signature)) throw errors.paramFormatInvalid('signature', 'a valid signature');
  if (prepared?.strategy !== strategy || !prepared.message) {
    if (prepared?.strategy === strategy && prepared.status === 'failed') throw errors.verificationFailed();
    throw errors.verificationNotPrepared();
  }
  if (prepared.status !== 'unverified') throw errors.verificationNotPrepared();
  const spent: VerificationState = { ...prepared, message: null, attempts: (prepared.attempts ?? 0) + 1 };
  if (prepared.expire_at !== null && prepared.expire_at <= now.getTime()) {
    return { ok: false, verification: { ...spent, status: 'expired' }, error: errors.verificationExpired() };
  }
  if (!(await signedBy(prepared.message, signature as Hex, address))) {
    return {
      ok: false,
      verification: { ...spent, status: 'failed' },
      error: errors.web3SignatureIncorrect(),
    };
  }
  return { ok: true, verification: { ...spent, status: 'verified', expire_at: null } };
}

/** EIP-191 personal_sign of the nonce's UTF-8 bytes (clerk-js sends it hex-encoded) by `address`. */
async function signedBy(message: string, signature: Hex, address: string): Promise<boolean> {
  try {
    const signer = await recoverMessageAddress({ message, signature });
    return isAddressEqual(signer, address as Hex);
  } catch {
    // An r, s or v that is no point on the curve: not a signature of anyone.
    return false;
  }
}
