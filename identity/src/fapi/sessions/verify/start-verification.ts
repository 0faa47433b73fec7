import { errors } from '../../../errors.ts';
import type { VerificationLevel } from '../../../reverification/require-reverification.ts';
import { createSessionVerification } from '../../../store/session-verifications.ts';
import { twoFactorEnabled } from '../../../second-factors/second-factor-state.ts';
import { setReverificationRequested } from '../../../store/sessions.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { loadVerifyingSession } from './load-verification.ts';
import { verificationResponse } from './respond.ts';
import { formInput } from '../../form-input.ts';

const LEVELS = new Set<VerificationLevel>(['first_factor', 'second_factor', 'multi_factor']);

/**
 * POST /client/sessions/:id/verify — <UserVerification/> opening (`session.startVerification`). clerk-js
 * asks for `second_factor` unless told otherwise: the second factor when the user has one, else the
 * first; `multi_factor` asks for both. Until one completes, the session's gated actions are refused
 * (`requireReverification`), even right after signing in.
 */
export const startVerificationRoute: FapiRoute = {
  method: 'POST',
  path: '/client/sessions/:id/verify',
  auth: 'session',
  permission: null,
  input: { body: formInput({ level: 'enum' }) },
  rateLimits: (req) => [{ key: `session_verify:${req.params.id}`, limit: 20, windowSeconds: 60 }],
  async handler(ctx) {
    const { session, owner } = await loadVerifyingSession(ctx);
    const level = (field(ctx.body, 'level') ?? 'second_factor') as VerificationLevel;
    if (!LEVELS.has(level)) {
      throw errors.paramValueInvalid('level', 'level must be first_factor, second_factor or multi_factor.');
    }
    const secondOnly = level === 'second_factor' && twoFactorEnabled(owner.secondFactors);
    const verification = await createSessionVerification(ctx.tx, {
      sessionId: session.id,
      level,
      status: secondOnly ? 'needs_second_factor' : 'needs_first_factor',
      now: ctx.now,
    });
    await setReverificationRequested(ctx.tx, session.id, true, ctx.now);
    return verificationResponse(ctx, verification);
  },
};
