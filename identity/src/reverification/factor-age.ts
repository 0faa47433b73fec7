import type { Queryable } from '../db/database.ts';
import { secondFactorStateOf, twoFactorEnabled } from '../second-factors/second-factor-state.ts';
import type { SessionRow } from '../store/rows.ts';

/**
 * Clerk's `factor_verification_age` (and the token's `fva`): whole minutes since the session last proved
 * a first factor and a second factor; -1 for the second when the user has no second factor at all, or
 * when the session never proved it (an impersonation, which asks for no factor of the user).
 */
export type FactorVerificationAge = [firstFactorAge: number, secondFactorAge: number];

const minutesSince = (then: Date, now: Date) =>
  Math.max(0, Math.floor((now.getTime() - then.getTime()) / 60_000));

export function factorVerificationAge(
  session: Pick<
    SessionRow,
    'first_factor_verified_at' | 'second_factor_verified_at' | 'created_at' | 'actor'
  >,
  twoFactor: boolean,
  now: Date,
): FactorVerificationAge {
  const first = minutesSince(session.first_factor_verified_at, now);
  if (!twoFactor) return [first, -1];
  if (session.actor && !session.second_factor_verified_at) return [first, -1];
  // A sign-in through the second factor recorded when (fapi/sessions/open-session.ts). A second factor
  // added after signing in was proven with a code when it was added, within this session:
  // until it is verified again, the session counts from its own start.
  return [first, minutesSince(session.second_factor_verified_at ?? session.created_at, now)];
}

export async function factorVerificationAgeOf(
  tx: Queryable,
  session: SessionRow,
  now: Date,
): Promise<FactorVerificationAge> {
  return factorVerificationAge(
    session,
    twoFactorEnabled(await secondFactorStateOf(tx, session.user_id)),
    now,
  );
}
