import { errors } from '../../errors.ts';
import { lockUserRow } from '../../store/admin-users.ts';
import { deleteUser } from '../../store/user-profile.ts';
import type { BapiRoute } from '../route.ts';

/**
 * DELETE /v1/users/:id — `users.deleteUser`: the user goes with their sessions, addresses, memberships and
 * second factors (ON DELETE CASCADE), so every token of theirs stops refreshing at once; the triggers of
 * migration 024 emit `user.deleted` to the instance's webhooks.
 * Answers Clerk's DeletedObject.
 */
export const deleteUserRoute: BapiRoute = {
  method: 'DELETE',
  path: '/v1/users/:id',
  auth: 'secret_key',
  permission: 'instance_secret_key',
  input: {},
  async handler(req, deps) {
    const id = req.params.id!;
    const found = await deps.db.transaction(async (tx) => {
      if (!(await lockUserRow(tx, id))) return false;
      await deleteUser(tx, id);
      return true;
    });
    if (!found) throw errors.notFound('user');
    return { object: 'user', id, deleted: true };
  },
};
