import { requireUser } from './require-user.ts';
import type { Queryable } from '../../db/database.ts';
import { clearPhoneSecondFactors } from '../../store/admin-users.ts';
import { deleteBackupCodes } from '../../store/backup-codes.ts';
import { deleteTotpSecret } from '../../store/totp-secrets.ts';
import { touchUser } from '../../store/user-profile.ts';
import type { BapiRoute } from '../route.ts';

type Removal = (tx: Queryable, userId: string) => Promise<void>;

/** Numbers kept for two-step verification only stop being second factors (they stay on the account). */
const removePhoneSecondFactors: Removal = clearPhoneSecondFactors;

/** `DELETE /v1/users/:id/<what>`: what goes, in one transaction; answers `{ user_id }` as Clerk does. */
function removalRoute(path: `/v1/users/:id/${string}`, removals: Removal[]): BapiRoute {
  return {
    method: 'DELETE',
    path,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const id = req.params.id!;
      const now = deps.clock();
      await deps.db.transaction(async (tx) => {
        await requireUser(tx, id);
        for (const remove of removals) await remove(tx, id);
        await touchUser(tx, id, now);
      });
      return { user_id: id };
    },
  };
}

/**
 * Backend API: second factors removed by the operator (a user who lost their phone): `users.disableUserMFA`
 * (all of them), `users.deleteUserTOTP` and `users.deleteUserBackupCodes`.
 */
export const userMfaRoutes: BapiRoute[] = [
  removalRoute('/v1/users/:id/mfa', [deleteTotpSecret, deleteBackupCodes, removePhoneSecondFactors]),
  removalRoute('/v1/users/:id/totp', [deleteTotpSecret]),
  removalRoute('/v1/users/:id/backup_code', [deleteBackupCodes]),
];
