import type { VerificationKey } from './session-token-keys.ts';

/** What a token verified once is remembered with. */
export interface VerifiedToken<T> {
  /** What authenticating it gave. */
  value: T;
  /** The key that verified it: the token is taken again only while the instance still holds that key. */
  key: VerificationKey;
  kid: string | undefined;
  /** Its `exp`, in milliseconds. */
  expiresAt: number;
}

/**
 * Session tokens already verified, by their exact text, most recently used last. A browser sends the same
 * token with every product call until clerk-js refreshes it (about once a minute), so all but the first
 * skip the RSA verification and claim parsing. The text is the whole signed token: only one we verified
 * can be found here. Only time can make such a token invalid, `exp`, checked on every use with the same
 * clock skew as @clerk/backend, or the instance dropping its key, checked by the caller. Bounded: the
 * least recently used token leaves first.
 */
export class VerifiedTokens<T> {
  private readonly entries = new Map<string, VerifiedToken<T>>();

  constructor(
    private readonly max = 10_000,
    private readonly clockSkewMs = 5_000,
  ) {}

  /** The token's entry while it has not expired; an expired one is forgotten. */
  get(token: string, now: number): VerifiedToken<T> | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    this.entries.delete(token);
    // @clerk/backend's rule: expired once exp <= now - skew.
    if (entry.expiresAt <= now - this.clockSkewMs) return undefined;
    this.entries.set(token, entry);
    return entry;
  }

  set(token: string, entry: VerifiedToken<T>): void {
    this.entries.delete(token);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, entry);
  }

  forget(token: string): void {
    this.entries.delete(token);
  }

  get size(): number {
    return this.entries.size;
  }
}
