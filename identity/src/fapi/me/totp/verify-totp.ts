import type { IdentityConfig } from '../../../config.ts';
import { errors } from '../../../errors.ts';
import { newBackupCodes } from '../../../second-factors/backup-codes.ts';
import { secondFactorStateOf } from '../../../second-factors/second-factor-state.ts';
import { spendTotpCode } from '../../../second-factors/spend-totp-code.ts';
import { totpJSON } from '../../../serializers/second-factors.ts';
import { replaceBackupCodes } from '../../../store/backup-codes.ts';
import { findTotpSecret } from '../../../store/totp-secrets.ts';
import { touchUser } from '../../../store/user-profile.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { currentSession } from '../me-session.ts';
import { refusedToActors } from '../actor-guard.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /me/totp/attempt_verification — the first code from the app enables it. As on hosted Clerk, a
 * user without backup codes gets a set now, shown once in this answer.
 */
export const verifyTotpRoute = (config: IdentityConfig): FapiRoute =>
  refusedToActors({
    method: 'POST',
    path: '/me/totp/attempt_verification',
    auth: 'session',
    permission: null,
    input: { body: formInput({ code: 'code' }) },
    rateLimits: (req) => [
      { key: `code:ip:${req.ip}`, limit: config.rateLimits.codeAttemptsPerIpPerMinute, windowSeconds: 60 },
      ...(req.sessionId ? [{ key: `code:totp:${req.sessionId}`, limit: 10, windowSeconds: 60 }] : []),
    ],
    async handler(ctx) {
      const session = await currentSession(ctx);
      const code = field(ctx.body, 'code');
      if (!code) throw errors.paramMissing('code');
      const row = await findTotpSecret(ctx.tx, session.user_id);
      if (!row) throw errors.notFound('totp');
      if (row.verified_at) throw errors.totpAlreadyEnabled();

      const verified = await spendTotpCode(ctx.tx, row, {
        code,
        instanceSecretKey: ctx.deps.keys.secretKey,
        now: ctx.now,
      });
      if (!verified) throw errors.codeIncorrect();
      await touchUser(ctx.tx, session.user_id, ctx.now);

      let backupCodes: string[] | undefined;
      if (!(await secondFactorStateOf(ctx.tx, session.user_id)).backupCodes) {
        backupCodes = newBackupCodes();
        await replaceBackupCodes(ctx.tx, {
          userId: session.user_id,
          codes: backupCodes,
          pepper: ctx.deps.keys.codePepper,
          now: ctx.now,
        });
      }
      return { response: totpJSON(verified, { backupCodes }) };
    },
  });
