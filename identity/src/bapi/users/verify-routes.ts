import { requireUser } from './require-user.ts';
import { verifyPassword } from '../../crypto/passwords.ts';
import { errors } from '../../errors.ts';
import { spendTotpCode } from '../../second-factors/spend-totp-code.ts';
import { findTotpSecret } from '../../store/totp-secrets.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: check a user's password or authenticator code for the operator's own server
 * (`users.verifyPassword`, `users.verifyTOTP`). A wrong one is Clerk's 422 error; nothing is counted
 * toward the lockout (the operator, not a guesser, is asking). A TOTP code is spent: it is not accepted twice.
 */
export const userVerifyRoutes: BapiRoute[] = [
  {
    method: 'POST',
    path: '/v1/users/:id/verify_password',
    // Reads or mints; changes nothing the audit log records (docs/audit-log.md).
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ password: 'string' }) },
    async handler(req, deps) {
      const password = req.fields.string('password');
      const user = await requireUser(deps.db, req.params.id!);
      if (password === undefined) throw errors.paramMissing('password');
      if (!user.password_hash) throw errors.paramValueInvalid('password', 'The user has no password.');
      if (!(await verifyPassword(user.password_hash, password))) throw errors.passwordIncorrect();
      return { verified: true };
    },
  },
  {
    method: 'POST',
    path: '/v1/users/:id/verify_totp',
    // Reads or mints; changes nothing the audit log records (docs/audit-log.md).
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ code: 'string' }) },
    async handler(req, deps) {
      const code = req.fields.string('code');
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        await requireUser(tx, req.params.id!);
        if (code === undefined) throw errors.paramMissing('code');
        const row = await findTotpSecret(tx, req.params.id!);
        if (!row?.verified_at) throw errors.noSecondFactors('totp');
        const spent = await spendTotpCode(tx, row, { code, instanceSecretKey: deps.keys.secretKey, now });
        if (!spent) throw errors.codeIncorrect();
        return { verified: true, code_type: 'totp' };
      });
    },
  },
];
