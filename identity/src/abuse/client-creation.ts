import type { RateLimitRule } from '../store/rate-limits.ts';
import { positiveInteger } from './abuse-settings.ts';

/** The window of the client-creation limit. */
export const CLIENT_CREATION_WINDOW_SECONDS = 600;
/**
 * New clients (browsers) one IP address may start in CLIENT_CREATION_WINDOW_SECONDS: a browser starts
 * one once and keeps its cookie, so even an office behind one address stays far below, while a script
 * (3,292 in 8 s) is stopped.
 */
export const DEFAULT_CLIENT_CREATIONS_PER_IP = 100;

/** `IDENTITY_RATE_LIMIT_CLIENTS_PER_IP`: new clients per IP address in ten minutes. */
export function clientCreationsPerIpFromEnv(env: NodeJS.ProcessEnv): number {
  return positiveInteger(
    env,
    'IDENTITY_RATE_LIMIT_CLIENTS_PER_IP',
    DEFAULT_CLIENT_CREATIONS_PER_IP,
    1_000_000,
  );
}

/**
 * Checks, then counts at commit, a client about to be created for `ip`, in the transaction that creates
 * it, whichever route does (`PUT /client`, `POST /dev_browser`, a first sign-in or sign-up): past the
 * limit, `429 too_many_requests` and no client. A request that fails creates no client and so counts
 * nothing. Counted at commit (`countAtCommit`), not here: the counter's row, one per address, would
 * otherwise stay locked for the rest of the transaction and every new browser of that address would
 * wait for the whole of the one before it. Requests checked at the same moment may together pass the
 * limit by as many as run at once.
 */
export function countClientCreation(
  ctx: { checkLimitAtCommit(rule: RateLimitRule): Promise<void> },
  limit: number,
  ip: string,
): Promise<void> {
  return ctx.checkLimitAtCommit(clientCreationLimit(limit, ip));
}

/** The rule countClientCreation checks. */
export function clientCreationLimit(limit: number, ip: string): RateLimitRule {
  return { key: `client_create:ip:${ip}`, limit, windowSeconds: CLIENT_CREATION_WINDOW_SECONDS };
}
