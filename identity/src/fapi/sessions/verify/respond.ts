import { errors } from '../../../errors.ts';
import type { SessionVerificationRow } from '../../../store/session-verifications.ts';
import {
  verificationFirstFactors,
  verificationSecondFactors,
} from '../../../reverification/verification-factors.ts';
import { verificationJSON } from '../../../serializers/verification.ts';
import { findSessionById } from '../../../store/sessions.ts';
import { loadUsers } from '../../../users/load-users.ts';
import { sessionJSON } from '../../client-json.ts';
import type { FapiContext, FapiResult } from '../../context.ts';
import { passkeyFactorOffered } from '../../../passkeys/passkey-factor.ts';

/**
 * Clerk's SessionVerificationJSON, wrapped, with the session as it is now: once complete, its
 * `factor_verification_age` and token already show the fresh verification.
 */
export async function verificationResponse(
  ctx: FapiContext,
  verification: SessionVerificationRow,
): Promise<FapiResult> {
  const session = await findSessionById(ctx.tx, verification.session_id);
  // Reloaded: a backup code just spent, a factor just added, change what is offered.
  const owner = session ? (await loadUsers(ctx.tx, [session.user_id])).get(session.user_id) : undefined;
  if (!session || !owner) throw errors.notFound('session');
  return {
    response: {
      object: 'session_verification',
      id: verification.id,
      status: verification.status,
      level: verification.level,
      session: await sessionJSON(ctx.deps, ctx.tx, session, owner, ctx.origin, ctx.now),
      first_factor_verification: verificationJSON(verification.first_factor_verification),
      second_factor_verification: verificationJSON(verification.second_factor_verification),
      supported_first_factors: [
        ...(passkeyFactorOffered(ctx.deps.settings.settings, owner) ? [{ strategy: 'passkey' }] : []),
        ...verificationFirstFactors(owner),
      ],
      supported_second_factors: verificationSecondFactors(owner),
    },
  };
}
