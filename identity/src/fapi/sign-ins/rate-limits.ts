import type { IdentityConfig } from '../../config.ts';
import { isTrustedBrowser } from '../../abuse/attempt-gate.ts';
import type { RateLimitRule } from '../../store/rate-limits.ts';
import type { UserRow } from '../../store/rows.ts';
import type { FapiContext, FapiRequestInfo } from '../context.ts';

/** Sign-ins started from one address (counted before the transaction, by create-sign-in.ts). */
export function signInIpLimit(config: IdentityConfig, ip: string): RateLimitRule {
  return { key: `sign_in:ip:${ip}`, limit: config.rateLimits.signInPerIpPerMinute, windowSeconds: 60 };
}

/** Sign-ins naming one identifier (as stored: a phone number counts once however it is written). */
export function identifierLimit(config: IdentityConfig, identifier: string): RateLimitRule {
  return {
    key: `sign_in:id:${identifier}`,
    limit: config.rateLimits.signInPerIdentifierPerMinute,
    windowSeconds: 60,
  };
}

/**
 * Counted in the transaction, once the account is known: the owner's own browser is not held back by a
 * limit that anyone can fill with the address alone (`429 too_many_requests` for every other one).
 * `user` null: no account, or a browser new to every account (counted without looking it up).
 */
export async function limitSignInsOfIdentifier(
  ctx: FapiContext,
  identifier: string,
  user: UserRow | null,
): Promise<void> {
  if (user && (await isTrustedBrowser(ctx, user.id))) return;
  // Checked now, counted at commit (see countClientCreation: the identifier's counter row would stay
  // locked for the rest of the transaction).
  await ctx.checkLimitAtCommit(identifierLimit(ctx.deps.config, identifier));
}

export function codeAttemptLimits(config: IdentityConfig) {
  return (req: FapiRequestInfo): RateLimitRule[] => [
    { key: `code:ip:${req.ip}`, limit: config.rateLimits.codeAttemptsPerIpPerMinute, windowSeconds: 60 },
    ...(req.params.id ? [{ key: `code:attempt:${req.params.id}`, limit: 10, windowSeconds: 60 }] : []),
  ];
}
