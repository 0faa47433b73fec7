import { requireUser } from '../users/require-user.ts';
import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { backendSessionJSON } from '../../serializers/backend-session.ts';
import { listSessions, revokeSignedInSession } from '../../store/admin-sessions.ts';
import { createClient } from '../../store/clients.ts';
import type { SessionRow, SessionStatus } from '../../store/rows.ts';
import { activitiesOf } from '../../store/session-activities.ts';
import { createSession, findSessionById } from '../../store/sessions.ts';
import { jsonInput, queryInput } from '../json-input.ts';
import { pagedAnswer } from '../paged-answer.ts';
import { queryString } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';

/** The statuses `getSessionList` filters on (Clerk's, and `pending` for a session with a task left). */
const STATUSES: SessionStatus[] = [
  'abandoned',
  'active',
  'ended',
  'expired',
  'pending',
  'removed',
  'replaced',
  'revoked',
];

function statusOf(query: Record<string, string | string[] | undefined>): SessionStatus | null {
  const value = queryString(query, 'status');
  if (value === undefined) return null;
  if (!(STATUSES as string[]).includes(value)) {
    throw errors.paramValueInvalid('status', `status must be one of ${STATUSES.join(', ')}.`);
  }
  return value as SessionStatus;
}

/** Sessions as the Backend API answers them, each with its latest activity. */
export async function sessionsAnswer(deps: IdentityDeps, rows: SessionRow[], now: Date) {
  const activities = await activitiesOf(
    deps.db,
    rows.map((s) => s.id),
  );
  return rows.map((s) => backendSessionJSON(s, now, activities.get(s.id)));
}

/** One session as the Backend API answers it; 404 when there is none. */
export async function sessionAnswer(deps: IdentityDeps, id: string, now = deps.clock()) {
  const session = await findSessionById(deps.db, id);
  if (!session) throw errors.notFound('session');
  return (await sessionsAnswer(deps, [session], now))[0];
}

/**
 * Backend API: `sessions.getSessionList`, `getSession`, `createSession`, `revokeSession` (@clerk/backend
 * 2.10.1). Statuses are those at the moment of the call (a signed-in session past its expiry is `expired`).
 */
export const sessionRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/sessions',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({
        client_id: 'text',
        user_id: 'text',
        status: 'enum',
        paginated: 'flag',
        limit: 'page',
        offset: 'page',
      }),
    },
    async handler(req, deps) {
      const page = pageOf(req.query);
      const now = deps.clock();
      const filter = {
        clientId: queryString(req.query, 'client_id') ?? null,
        userId: queryString(req.query, 'user_id') ?? null,
        status: statusOf(req.query),
      };
      const { rows, total } = await listSessions(deps.db, filter, page, now);
      return pagedAnswer(req.query, await sessionsAnswer(deps, rows, now), total);
    },
  },
  {
    method: 'GET',
    path: '/v1/sessions/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    handler: (req, deps) => sessionAnswer(deps, req.params.id!),
  },
  {
    // Clerk offers this for tests only, never on a production instance: a session nobody signed in to.
    method: 'POST',
    path: '/v1/sessions',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ user_id: 'id' }) },
    async handler(req, deps) {
      const userId = req.fields.string('user_id');
      if (userId === undefined) throw errors.paramMissing('user_id');
      if (deps.config.mode === 'production') throw errors.testingOnly('Creating sessions');
      const now = deps.clock();
      const session = await deps.db.transaction(async (tx) => {
        const user = await requireUser(tx, userId);
        if (user.banned) throw errors.userBanned();
        // A browser of its own, whose credential nobody holds: the session lives on the server side only.
        const { client } = await createClient(tx, now);
        const opened = await createSession(tx, {
          finished: 'sign_in_id',
          clientId: client.id,
          userId,
          lifetimeSeconds: deps.config.sessionLifetimeSeconds,
          status: deps.config.forceOrganizationSelection ? 'pending' : 'active',
          openedFrom: { ip: '', userAgent: null },
          now,
        });
        return opened.session;
      });
      return (await sessionsAnswer(deps, [session], now))[0];
    },
  },
  {
    method: 'POST',
    path: '/v1/sessions/:id/revoke',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const id = req.params.id!;
      const now = deps.clock();
      // Revoking a session that is no longer signed in changes nothing and answers it as it is.
      await deps.db.transaction((tx) => revokeSignedInSession(tx, id, now));
      return sessionAnswer(deps, id, now);
    },
  },
];
