import type { Queryable } from '../db/database.ts';
import { errors } from '../errors.ts';
import type { SessionRow } from '../store/rows.ts';
import { factorVerificationAgeOf, type FactorVerificationAge } from './factor-age.ts';

export type VerificationLevel = 'first_factor' | 'second_factor' | 'multi_factor';

export interface ReverificationRule {
  level: VerificationLevel;
  afterMinutes: number;
}

/**
 * Clerk's `strict` preset (`packages/shared/src/authorization.ts`): a factor proven within the last 10
 * minutes — the second factor when the user has one, else the first. Hosted Clerk asks it before deleting
 * the account, changing the password or removing a second factor.
 */
export const STRICT: ReverificationRule = { level: 'second_factor', afterMinutes: 10 };

/** clerk-js's `checkReverificationAuthorization`, on the server's clock. */
export function isRecentEnough([first, second]: FactorVerificationAge, rule: ReverificationRule): boolean {
  const fresh = (age: number) => rule.afterMinutes > age;
  switch (rule.level) {
    case 'first_factor':
      return fresh(first);
    case 'second_factor':
      return second === -1 ? fresh(first) : fresh(second);
    case 'multi_factor':
      return second === -1 ? fresh(first) : fresh(first) && fresh(second);
  }
}

/**
 * Guards a sensitive action: 403 `session_reverification_required` when the session has not proven a
 * factor recently enough, or has started a re-verification (`session.startVerification`) not yet complete. clerk-js's `useReverification` then opens <UserVerification/> and retries.
 */
export async function requireReverification(
  ctx: { tx: Queryable; now: Date },
  session: SessionRow,
  rule: ReverificationRule = STRICT,
): Promise<void> {
  if (
    !session.reverification_requested &&
    isRecentEnough(await factorVerificationAgeOf(ctx.tx, session, ctx.now), rule)
  ) {
    return;
  }
  throw errors.sessionReverificationRequired(rule);
}
