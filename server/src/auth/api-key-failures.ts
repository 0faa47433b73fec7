import { isIPv6 } from 'node:net';
import type { Queryable } from '@app/identity';

/**
 * Failed bearer verifications, limited per client address: API keys (docs/api-keys.md, `api_key_failures`),
 * OAuth access tokens (docs/oauth-provider.md, `oauth_token_failures`) and M2M tokens (`m2m_token_failures`),
 * each kind its own count. Past
 * `limit` failures in a window of `windowSeconds`, every bearer of that kind from that address is refused
 * with 429 and `Retry-After` until the window ends, before it is verified (no Backend API round trip).
 * Counted in the product database, so every instance and every restart sees the same count.
 *
 * A key is checked against the count before it is verified and counted after it failed, so a burst of
 * guesses sent at once can each be verified before the first failure is counted: at most one per request
 * in flight beyond the limit. Counting every attempt first (and taking it back when the key verifies) would
 * cost every good request two writes; the guesses a burst gains are worthless against 285-bit keys, and the
 * limit is there to spare the Backend API, which the next request already no longer reaches.
 */
export interface ApiKeyFailureLimit {
  limit: number;
  windowSeconds: number;
}

/** 30 failures in 10 minutes: a script with a wrong key fails far less often than that. */
export const API_KEY_FAILURE_LIMIT: ApiKeyFailureLimit = { limit: 30, windowSeconds: 600 };
/**
 * The same for OAuth access tokens: an application with an expired token refreshes it at its first 401,
 * so even a busy one fails a few times an hour; 30 in 10 minutes is a scan.
 */
export const OAUTH_TOKEN_FAILURE_LIMIT: ApiKeyFailureLimit = { limit: 30, windowSeconds: 600 };
/** The same for M2M tokens: a machine mints a new token when its own expires, a scan fails all the time. */
export const M2M_TOKEN_FAILURE_LIMIT: ApiKeyFailureLimit = { limit: 30, windowSeconds: 600 };

/** Which bearer a counter counts: its table, and the words of its 429. */
export const BEARER_KINDS = {
  apiKey: {
    table: 'api_key_failures',
    reason: 'Too many failed API keys from this address. Try again later.',
  },
  oauthToken: {
    table: 'oauth_token_failures',
    reason: 'Too many failed access tokens from this address. Try again later.',
  },
  m2mToken: {
    table: 'm2m_token_failures',
    reason: 'Too many failed machine tokens from this address. Try again later.',
  },
} as const;
export type BearerKind = (typeof BEARER_KINDS)[keyof typeof BEARER_KINDS];

/** What a verification answers: the refusals that count (`invalid`) and the one this adds (`limited`). */
type Verified =
  | { ok: true }
  | { ok: false; refusal: 'invalid' | 'unavailable'; reason: string }
  | { ok: false; refusal: 'limited'; reason: string; retryAfterSeconds: number };
type Limited = { ok: false; refusal: 'limited'; reason: string; retryAfterSeconds: number };

export class ApiKeyFailures {
  private purgedAt = 0;

  constructor(
    private readonly db: Queryable,
    private readonly rule: ApiKeyFailureLimit = API_KEY_FAILURE_LIMIT,
    private readonly clock: () => Date = () => new Date(),
    private readonly kind: BearerKind = BEARER_KINDS.apiKey,
  ) {}

  /**
   * `verify` the address's bearer unless the address is past its limit (then it is not looked at), and
   * count it when it is none: unknown, revoked, expired, or not even shaped like one.
   */
  async guard<R extends Verified>(address: string, verify: () => Promise<R>): Promise<R | Limited> {
    const wait = await this.waitFor(address);
    if (wait > 0) {
      return { ok: false, refusal: 'limited', reason: this.kind.reason, retryAfterSeconds: wait };
    }
    const result = await verify();
    if (!result.ok && result.refusal === 'invalid') await this.failed(address);
    return result;
  }

  /** The seconds the address must wait before its next key is verified; 0 when it may go on. */
  async waitFor(address: string): Promise<number> {
    const now = this.clock();
    const [row] = await this.db.query<{ window_start: Date; failures: number }>(
      `SELECT window_start, failures FROM ${this.kind.table}
        WHERE address = $1 AND window_start > $2::timestamptz - make_interval(secs => $3)`,
      [addressKey(address), now, this.rule.windowSeconds],
    );
    if (!row || row.failures < this.rule.limit) return 0;
    const reset = row.window_start.getTime() + this.rule.windowSeconds * 1000;
    return Math.max(1, Math.ceil((reset - now.getTime()) / 1000));
  }

  /** Counts a failed verification from the address (a new window when its last one has ended). */
  async failed(address: string): Promise<void> {
    const now = this.clock();
    const table = this.kind.table;
    const over = `${table}.window_start <= $2::timestamptz - make_interval(secs => $3)`;
    await this.db.query(
      `INSERT INTO ${table} (address, window_start, failures) VALUES ($1, $2, 1)
       ON CONFLICT (address) DO UPDATE SET
         failures = CASE WHEN ${over} THEN 1 ELSE ${table}.failures + 1 END,
         window_start = CASE WHEN ${over} THEN $2 ELSE ${table}.window_start END`,
      [addressKey(address), now, this.rule.windowSeconds],
    );
    // Ended windows go, at most once a window per process: the table holds the addresses of one window.
    if (now.getTime() - this.purgedAt >= this.rule.windowSeconds * 1000) {
      this.purgedAt = now.getTime();
      await this.db.query(
        `DELETE FROM ${table} WHERE window_start <= $1::timestamptz - make_interval(secs => $2)`,
        [now, this.rule.windowSeconds],
      );
    }
  }
}

/**
 * The address a count belongs to: an IPv4 address as it is (an IPv4-mapped IPv6 one as IPv4), an IPv6
 * address by its /64, the smallest block a single subscriber is given, so that walking the addresses of
 * one's own block starts no new count.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
