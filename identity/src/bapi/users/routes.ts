import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import { fullUserJSON, loadUsers } from '../../users/load-users.ts';
import { deepMerge } from '../../util/deep-merge.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { orderOf } from '../organizations/request-input.ts';
import { sendJson } from '../send-json.ts';

type Query = Record<string, string | string[] | undefined>;
const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The WHERE clause shared by the user list and its count (falsy params never arrive: defaults apply). */
function userFilter(q: Query): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(params.length));
  };
  const emails = list(q.email_address).map((e) => e.toLowerCase());
  if (emails.length)
    add(
      (n) => `u.id IN (SELECT user_id FROM email_addresses WHERE lower(email_address) = ANY($${n}))`,
      emails,
    );
  const ids = list(q.user_id);
  if (ids.length) add((n) => `u.id = ANY($${n})`, ids);
  const externalIds = list(q.external_id);
  if (externalIds.length) add((n) => `u.external_id = ANY($${n})`, externalIds);
  const orgs = list(q.organization_id);
  if (orgs.length)
    add(
      (n) => `u.id IN (SELECT user_id FROM organization_memberships WHERE organization_id = ANY($${n}))`,
      orgs,
    );
  const query = typeof q.query === 'string' ? q.query.trim() : '';
  if (query) {
    add(
      (n) => `(u.id = $${n} OR u.first_name ILIKE '%' || $${n} || '%' OR u.last_name ILIKE '%' || $${n} || '%'
        OR u.id IN (SELECT user_id FROM email_addresses WHERE email_address ILIKE '%' || $${n} || '%'))`,
      query,
    );
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const ORDERS: Record<string, string> = {
  created_at: 'u.created_at ASC',
  '-created_at': 'u.created_at DESC',
  updated_at: 'u.updated_at ASC',
  '-updated_at': 'u.updated_at DESC',
  last_sign_in_at: 'u.last_sign_in_at ASC NULLS FIRST',
  '-last_sign_in_at': 'u.last_sign_in_at DESC NULLS LAST',
};

/** Backend API: users (list, count, metadata). */
export async function registerUserBapi(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  app.get<{ Querystring: Query }>('/v1/users', async (req, reply) => {
    const { where, params } = userFilter(req.query);
    const { limit, offset } = pageOf(req.query);
    // `+created_at` and `created_at` both mean ascending; an order we do not know is refused.
    const order = ORDERS[orderOf(req.query, Object.keys(ORDERS), '-created_at')];
    const ids = await deps.db.query<{ id: string }>(
      `SELECT u.id FROM users u ${where} ORDER BY ${order}, u.id LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    const owners = await loadUsers(
      deps.db,
      ids.map((r) => r.id),
    );
    const now = deps.clock();
    // @clerk/backend expects a bare array here, with the count fetched separately.
    return sendJson(
      reply,
      200,
      ids.flatMap((r) => {
        const owner = owners.get(r.id);
        return owner ? [fullUserJSON(deps, owner, now, { includePrivate: true })] : [];
      }),
    );
  });

  app.get<{ Querystring: Query }>('/v1/users/count', async (req, reply) => {
    const { where, params } = userFilter(req.query);
    const [row] = await deps.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users u ${where}`,
      params,
    );
    return sendJson(reply, 200, { object: 'total_count', total_count: row?.n ?? 0 });
  });

  app.patch<{ Params: { id: string }; Body: Record<string, unknown> | undefined }>(
    '/v1/users/:id/metadata',
    async (req, reply) => {
      const body = req.body ?? {};
      const patches: Record<string, Record<string, unknown>> = {};
      for (const key of ['public_metadata', 'private_metadata', 'unsafe_metadata'] as const) {
        const value = body[key];
        if (value === undefined) continue;
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw errors.paramFormatInvalid(key, 'a JSON object');
        }
        patches[key] = value as Record<string, unknown>;
      }
      const now = deps.clock();
      await deps.db.transaction(async (tx) => {
        const [user] = await tx.query<Record<string, Record<string, unknown>>>(
          'SELECT public_metadata, private_metadata, unsafe_metadata FROM users WHERE id = $1 FOR UPDATE',
          [req.params.id],
        );
        if (!user) throw errors.notFound('user');
        for (const [key, patch] of Object.entries(patches)) {
          await tx.query(`UPDATE users SET ${key} = $2, updated_at = $3 WHERE id = $1`, [
            req.params.id,
            JSON.stringify(deepMerge(user[key] ?? {}, patch)),
            now,
          ]);
        }
      });
      const owner = (await loadUsers(deps.db, [req.params.id])).get(req.params.id);
      if (!owner) throw errors.notFound('user');
      return sendJson(reply, 200, fullUserJSON(deps, owner, now, { includePrivate: true }));
    },
  );
}
