import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { backendClientJSON } from '../../serializers/backend-session.ts';
import { listClients, signedInSessionsOfClients } from '../../store/admin-sessions.ts';
import { findClientById, findClientByToken } from '../../store/clients.ts';
import type { ClientRow } from '../../store/rows.ts';
import { activitiesOf } from '../../store/session-activities.ts';
import { redeemHandshakeNonce } from '../../sessions/handshake.ts';
import { jsonInput, queryInput } from '../json-input.ts';
import { pagedAnswer } from '../paged-answer.ts';
import type { BapiRoute } from '../route.ts';

/** Clients as the Backend API answers them, each with its signed-in sessions. */
async function clientsAnswer(deps: IdentityDeps, clients: ClientRow[]) {
  const now = deps.clock();
  const sessions = await signedInSessionsOfClients(
    deps.db,
    clients.map((c) => c.id),
    now,
  );
  const activities = await activitiesOf(
    deps.db,
    [...sessions.values()].flat().map((s) => s.id),
  );
  return clients.map((c) => backendClientJSON(c, sessions.get(c.id) ?? [], now, activities));
}

/**
 * Backend API: `clients.getClientList`, `getClient`, `verifyClient` (@clerk/backend 2.10.1). A client is
 * one browser; `verifyClient` takes the credential that browser presents (its `__client` cookie or, in
 * development, its dev-browser token) and answers the client it belongs to. `getHandshakePayload` redeems
 * the nonce of a handshake (`GET /v1/client/handshake?format=nonce`) for its cookie directives, once.
 */
export const clientRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/clients',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ paginated: 'flag', limit: 'page', offset: 'page' }) },
    async handler(req, deps) {
      const { rows, total } = await listClients(deps.db, pageOf(req.query));
      return pagedAnswer(req.query, await clientsAnswer(deps, rows), total);
    },
  },
  {
    method: 'GET',
    path: '/v1/clients/handshake_payload',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ nonce: 'text' }) },
    async handler(req, deps) {
      const nonce = typeof req.query.nonce === 'string' ? req.query.nonce.trim() : '';
      if (!nonce) throw errors.paramMissing('nonce');
      // A nonce another instance issued is not in this instance's table: not found, like a spent one.
      const directives = await redeemHandshakeNonce(deps.db, nonce, deps.clock());
      if (!directives) throw errors.notFound('handshake payload');
      return { directives };
    },
  },
  {
    method: 'GET',
    path: '/v1/clients/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const client = await findClientById(deps.db, req.params.id!);
      if (!client) throw errors.notFound('client');
      return (await clientsAnswer(deps, [client]))[0];
    },
  },
  {
    method: 'POST',
    path: '/v1/clients/verify',
    // Reads or mints; changes nothing the audit log records (docs/audit-log.md).
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ token: 'string' }) },
    async handler(req, deps) {
      const token = req.fields.string('token');
      if (token === undefined) throw errors.paramMissing('token');
      // Looked up by the credential's SHA-256, as every request of that browser is.
      const client = token ? await findClientByToken(deps.db, token) : null;
      if (!client) throw errors.notFound('client');
      return (await clientsAnswer(deps, [client]))[0];
    },
  },
];
