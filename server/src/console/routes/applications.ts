import { z } from '@app/contract';
import { consoleRoute } from '../console-route.ts';
import {
  apiKeyIdParam,
  machineIdParam,
  oauthApplicationIdParam,
  oneLine,
  pageQuery,
  searchText,
  subjectIdParam,
} from './ids.ts';

/**
 * The console's applications area (docs/console.md): what reaches the instance other than people — API
 * keys (docs/api-keys.md), OAuth applications (docs/oauth-provider.md) and machines with their M2M scopes
 * (docs/backend-api.md#machines). Every change is a Backend API call as the operator's, so the provider
 * records it in the audit log under their name (`api_key.revoke`, `oauth_application.created`,
 * `machine.deleted`…); revoking, rotating a secret and deleting are re-verified, as the console's other
 * destructive actions. A secret made here (an OAuth client secret, a machine's key) is in the answer of
 * the call that made it, and shown once.
 */

/** Ten years, the Backend API's longest machine token lifetime (machines.ts's MAX_TOKEN_TTL). */
const MAX_TOKEN_TTL = 10 * 365 * 86_400;

/**
 * GET /console/api/applications/api-keys?subject=&include_invalid=&limit=&offset= — `apiKeys.list`
 * (`GET /api_keys`, no `/v1`), a user's or an organisation's keys, newest first: `{ data, total_count }`.
 * The Backend API lists by subject only, never the whole instance.
 */
export const listApiKeysRoute = consoleRoute({
  method: 'GET',
  path: '/applications/api-keys',
  permission: 'operator',
  input: {
    query: z.object({
      subject: subjectIdParam,
      include_invalid: z.enum(['true', 'false']).optional(),
      ...pageQuery,
    }),
  },
  async handler({ operator, query: { subject, include_invalid, limit, offset } }, { backend }) {
    return backend.call('GET', '/api_keys', {
      operatorId: operator.userId,
      unversioned: true,
      query: { subject, include_invalid: include_invalid === 'true' || undefined, limit, offset },
    });
  },
});

/**
 * POST /console/api/applications/api-keys/:apiKeyId/revoke `{ reason? }` — `apiKeys.revoke`: the key is
 * refused at once wherever it is presented. Re-verified.
 */
export const revokeApiKeyRoute = consoleRoute({
  method: 'POST',
  path: '/applications/api-keys/:apiKeyId/revoke',
  permission: 'operator_reverified',
  input: {
    params: { apiKeyId: apiKeyIdParam },
    body: z.object({ reason: oneLine(500).optional() }).strict(),
  },
  async handler({ operator, params: { apiKeyId }, body: { reason } }, { backend }) {
    return backend.call('POST', `/api_keys/${apiKeyId}/revoke`, {
      operatorId: operator.userId,
      unversioned: true,
      body: reason ? { revocation_reason: reason } : {},
    });
  },
});

/** GET /console/api/applications/oauth?limit=&offset= — `oauthApplications.list`, newest first. */
export const listOAuthApplicationsRoute = consoleRoute({
  method: 'GET',
  path: '/applications/oauth',
  permission: 'operator',
  input: { query: z.object(pageQuery) },
  async handler({ operator, query: { limit, offset } }, { backend }) {
    return backend.call('GET', '/oauth_applications', {
      operatorId: operator.userId,
      query: { limit, offset, order_by: '-created_at' },
    });
  },
});

/** A redirect URI as an operator types it: one absolute URI, no spaces; the Backend API checks the rest. */
const redirectUri = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .regex(/^[a-z][a-z0-9+.-]*:[^\s]+$/i, 'an absolute URI');

/** A scope's name (`openid`, `public_metadata`…); which ones the instance offers is the Backend API's to say. */
const scopeName = z.string().regex(/^[a-z][a-z_]{0,63}$/, 'a scope name');

/**
 * POST /console/api/applications/oauth `{ name, redirect_uris, public, scopes }` —
 * `oauthApplications.create`: the answer carries the client secret of a confidential application, the only
 * time it is shown (the provider keeps its hash).
 */
export const createOAuthApplicationRoute = consoleRoute({
  method: 'POST',
  path: '/applications/oauth',
  permission: 'operator',
  input: {
    body: z
      .object({
        name: oneLine(256),
        redirect_uris: z.array(redirectUri).min(1).max(20),
        public: z.boolean(),
        scopes: z.array(scopeName).max(20),
      })
      .strict(),
  },
  async handler({ operator, body }, { backend }) {
    return backend.call('POST', '/oauth_applications', {
      operatorId: operator.userId,
      body: { ...body, scopes: body.scopes.join(' ') },
    });
  },
});

/**
 * POST /console/api/applications/oauth/:applicationId/rotate-secret — `oauthApplications.rotateSecret`: a
 * new client secret, shown once; the old one stops working at once. Re-verified.
 */
export const rotateOAuthApplicationSecretRoute = consoleRoute({
  method: 'POST',
  path: '/applications/oauth/:applicationId/rotate-secret',
  permission: 'operator_reverified',
  input: { params: { applicationId: oauthApplicationIdParam } },
  async handler({ operator, params: { applicationId } }, { backend }) {
    return backend.call('POST', `/oauth_applications/${applicationId}/rotate_secret`, {
      operatorId: operator.userId,
    });
  },
});

/** DELETE /console/api/applications/oauth/:applicationId — `oauthApplications.delete`. Re-verified. */
export const deleteOAuthApplicationRoute = consoleRoute({
  method: 'DELETE',
  path: '/applications/oauth/:applicationId',
  permission: 'operator_reverified',
  input: { params: { applicationId: oauthApplicationIdParam } },
  async handler({ operator, params: { applicationId } }, { backend }) {
    return backend.call('DELETE', `/oauth_applications/${applicationId}`, { operatorId: operator.userId });
  },
});

/**
 * GET /console/api/applications/machines?query=&limit=&offset= — `machines.list`: `{ data, total_count }`,
 * each machine with the machines it may call (`scoped_machines`, its M2M scopes).
 */
export const listMachinesRoute = consoleRoute({
  method: 'GET',
  path: '/applications/machines',
  permission: 'operator',
  input: { query: z.object({ query: searchText, ...pageQuery }) },
  async handler({ operator, query: { query, limit, offset } }, { backend }) {
    return backend.call('GET', '/machines', {
      operatorId: operator.userId,
      query: { query: query || undefined, limit, offset },
    });
  },
});

/**
 * POST /console/api/applications/machines `{ name, default_token_ttl?, scoped_machines? }` —
 * `machines.create`: the answer carries the machine's secret key, shown once here.
 */
export const createMachineRoute = consoleRoute({
  method: 'POST',
  path: '/applications/machines',
  permission: 'operator',
  input: {
    body: z
      .object({
        name: oneLine(255),
        default_token_ttl: z.number().int().min(1).max(MAX_TOKEN_TTL).optional(),
        scoped_machines: z.array(machineIdParam).max(150).optional(),
      })
      .strict(),
  },
  async handler({ operator, body }, { backend }) {
    return backend.call('POST', '/machines', { operatorId: operator.userId, body });
  },
});

/**
 * DELETE /console/api/applications/machines/:machineId — `machines.delete`: its scopes and tokens go with
 * it. Re-verified.
 */
export const deleteMachineRoute = consoleRoute({
  method: 'DELETE',
  path: '/applications/machines/:machineId',
  permission: 'operator_reverified',
  input: { params: { machineId: machineIdParam } },
  async handler({ operator, params: { machineId } }, { backend }) {
    return backend.call('DELETE', `/machines/${machineId}`, { operatorId: operator.userId });
  },
});

export const applicationConsoleRoutes = [
  listApiKeysRoute,
  revokeApiKeyRoute,
  listOAuthApplicationsRoute,
  createOAuthApplicationRoute,
  rotateOAuthApplicationSecretRoute,
  deleteOAuthApplicationRoute,
  listMachinesRoute,
  createMachineRoute,
  deleteMachineRoute,
];
