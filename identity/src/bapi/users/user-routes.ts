import { errors } from '../../errors.ts';
import { fullUserJSON, loadUsers } from '../../users/load-users.ts';
import { deepMerge } from '../../util/deep-merge.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { countUsers, searchUserIds, USER_ORDER_KEYS, type UserFilter } from '../../store/user-search.ts';
import { lockUserMetadata, setUserMetadata, type UserMetadataKey } from '../../store/user-admin-changes.ts';
import type { IdentityDeps } from '../../deps.ts';
import { orderOf } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';
import { jsonInput, queryInput } from '../json-input.ts';

type Query = Record<string, string | string[] | undefined>;
const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The filters of the user list and its count (falsy params never arrive: defaults apply). */
function userFilter(q: Query): UserFilter {
  return {
    emailAddresses: list(q.email_address),
    userIds: list(q.user_id),
    externalIds: list(q.external_id),
    organizationIds: list(q.organization_id),
    phoneNumbers: list(q.phone_number),
    usernames: list(q.username),
    web3Wallets: list(q.web3_wallet),
    query: typeof q.query === 'string' ? q.query.trim() : '',
  };
}

/** A user as the Backend API answers it; 404 when there is none. */
export async function userAnswer(deps: IdentityDeps, id: string, now = deps.clock()): Promise<unknown> {
  const owner = (await loadUsers(deps.db, [id])).get(id);
  if (!owner) throw errors.notFound('user');
  return fullUserJSON(deps, owner, now, { includePrivate: true });
}

const USER_FILTERS = {
  email_address: 'text',
  user_id: 'text',
  external_id: 'text',
  organization_id: 'text',
  phone_number: 'text',
  username: 'text',
  web3_wallet: 'text',
  query: 'text',
} as const;

/** Backend API: users (list, count, one, metadata). */
export const userRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/users',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ limit: 'page', offset: 'page', order_by: 'enum', ...USER_FILTERS }) },
    async handler(req, deps) {
      const page = pageOf(req.query);
      // `+created_at` and `created_at` both mean ascending; an order we do not know is refused.
      const order = orderOf(req.query, USER_ORDER_KEYS, '-created_at');
      const ids = await searchUserIds(deps.db, userFilter(req.query), page, order);
      const owners = await loadUsers(deps.db, ids);
      const now = deps.clock();
      // @clerk/backend expects a bare array here, with the count fetched separately.
      return ids.flatMap((id) => {
        const owner = owners.get(id);
        return owner ? [fullUserJSON(deps, owner, now, { includePrivate: true })] : [];
      });
    },
  },
  {
    method: 'GET',
    path: '/v1/users/count',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput(USER_FILTERS) },
    async handler(req, deps) {
      return { object: 'total_count', total_count: await countUsers(deps.db, userFilter(req.query)) };
    },
  },
  {
    method: 'GET',
    path: '/v1/users/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    handler: (req, deps) => userAnswer(deps, req.params.id!),
  },
  {
    method: 'PATCH',
    path: '/v1/users/:id/metadata',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      body: jsonInput({ public_metadata: 'object', private_metadata: 'object', unsafe_metadata: 'object' }),
    },
    async handler(req, deps) {
      const id = req.params.id!;
      const patches: [UserMetadataKey, Record<string, unknown>][] = [];
      for (const key of ['public_metadata', 'private_metadata', 'unsafe_metadata'] as const) {
        const value = req.fields.object(key);
        if (value !== undefined) patches.push([key, value]);
      }
      const now = deps.clock();
      await deps.db.transaction(async (tx) => {
        const user = await lockUserMetadata(tx, id);
        if (!user) throw errors.notFound('user');
        for (const [key, patch] of patches) {
          await setUserMetadata(tx, id, key, deepMerge(user[key] ?? {}, patch), now);
        }
      });
      return userAnswer(deps, id, now);
    },
  },
];
