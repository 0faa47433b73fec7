import { requireUser } from './require-user.ts';
import type { Queryable } from '../../db/database.ts';
import { errors } from '../../errors.ts';
import { touchUser } from '../../store/user-profile.ts';
import type { BapiRoute } from '../route.ts';

/**
 * `DELETE /v1/users/:id/<kind>/:resourceId` as @clerk/backend's `users.deleteUser…` calls it: in one
 * transaction, the user must exist and the resource be theirs (another user's is 404, as one that does not
 * exist); it goes, the user's `updated_at` moves, and the answer is Clerk's DeletedObject.
 */
export function deleteUserResourceRoute(opts: {
  path: `/v1/users/:id/${string}/:resourceId`;
  object: string;
  /** The noun of the 404 (`resource_not_found`'s message). */
  noun: string;
  find: (tx: Queryable, userId: string, id: string) => Promise<{ id: string } | null>;
  remove: (tx: Queryable, userId: string, id: string, now: Date) => Promise<void>;
}): BapiRoute {
  return {
    method: 'DELETE',
    path: opts.path,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const userId = req.params.id!;
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        await requireUser(tx, userId);
        const resource = await opts.find(tx, userId, req.params.resourceId!);
        if (!resource) throw errors.notFound(opts.noun);
        await opts.remove(tx, userId, resource.id, now);
        await touchUser(tx, userId, now);
        return { object: opts.object, id: resource.id, deleted: true };
      });
    },
  };
}
