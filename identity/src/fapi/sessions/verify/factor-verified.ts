import {
  updateSessionVerification,
  type SessionVerificationRow,
} from '../../../store/session-verifications.ts';
import { twoFactorEnabled } from '../../../second-factors/second-factor-state.ts';
import type { SessionRow, VerificationState } from '../../../store/rows.ts';
import { recordFactorVerification, setReverificationRequested } from '../../../store/sessions.ts';
import { clearFailedAttempts } from '../../../abuse/attempt-gate.ts';
import type { Owner } from '../../../users/load-users.ts';
import type { FapiContext } from '../../context.ts';

/**
 * A factor proven again: the session records when (its `fva` and `factor_verification_age` follow) and
 * the verification moves on — to the second factor for `multi_factor` when the user has one, else to
 * `complete`. A right factor also clears the run of failures counted towards the lockout, as a sign-in does.
 */
export async function factorVerified(
  ctx: FapiContext,
  verification: SessionVerificationRow,
  session: SessionRow,
  owner: Owner,
  factor: 'first_factor' | 'second_factor',
  state: VerificationState,
): Promise<SessionVerificationRow> {
  await recordFactorVerification(ctx.tx, session.id, factor, ctx.now);
  await clearFailedAttempts(ctx, owner.user.id);
  if (factor === 'second_factor') {
    await setReverificationRequested(ctx.tx, session.id, false, ctx.now);
    return updateSessionVerification(
      ctx.tx,
      verification.id,
      { status: 'complete', second_factor_verification: state },
      ctx.now,
    );
  }
  const next =
    verification.level === 'multi_factor' && twoFactorEnabled(owner.secondFactors)
      ? 'needs_second_factor'
      : 'complete';
  if (next === 'complete') await setReverificationRequested(ctx.tx, session.id, false, ctx.now);
  return updateSessionVerification(
    ctx.tx,
    verification.id,
    { status: next, first_factor_verification: state },
    ctx.now,
  );
}

/** Where a re-verification's codes are kept (verification_codes.subject). */
export const codeSubject = (
  verification: SessionVerificationRow,
  step: 'first_factor' | 'second_factor',
  strategy: string,
) => `session_verification:${verification.id}:${step}:${strategy}`;
