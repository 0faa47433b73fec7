import { apiKeyJSON } from '../../api-keys/api-key-json.ts';
import {
  createApiKey,
  findApiKeyById,
  ownerOfSubject,
  revealApiKeySecret,
  revokeApiKey,
  subjectAllowed,
  verifyApiKeySecret,
} from '../../api-keys/api-keys.ts';
import { apiKeyErrors } from '../../api-keys/api-key-errors.ts';
import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { apiKeyPageOf } from '../../store/api-keys.ts';
import { queryFlag, queryString } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';
import { jsonInput, queryInput } from '../json-input.ts';

/**
 * Backend API: API keys as `@clerk/backend` 2.10.1's `apiKeys` calls them. Its client skips the API
 * version for these (`skipApiVersionInUrl`), so there is no `/v1`. The secret key reaches every key of
 * the instance; `verify` is what `authenticateRequest({acceptsToken: 'api_key'})` asks, and any key
 * that is unknown, revoked or expired is 404 there (`token-invalid` in @clerk/backend), whatever the
 * reason. The list is what later versions of @clerk/backend call (`apiKeys.list({ subject, includeInvalid })`).
 */
export const apiKeyBapiRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/api_keys',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ subject: 'text', include_invalid: 'flag', limit: 'page', offset: 'page' }) },
    async handler(req, deps) {
      const owner = ownerOfSubject(queryString(req.query, 'subject'));
      const page = pageOf(req.query);
      const now = deps.clock();
      const { rows, total } = await apiKeyPageOf(deps.db, owner, {
        includeInvalid: queryFlag(req.query, 'include_invalid'),
        now,
        ...page,
      });
      // A subject this instance does not have holds no keys: an empty page, as for one without any.
      return { data: rows.map((row) => apiKeyJSON(row, now)), total_count: total };
    },
  },
  {
    method: 'POST',
    path: '/api_keys',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      body: jsonInput({
        type: 'string',
        name: 'string',
        subject: 'id',
        description: 'string',
        claims: 'object',
        scopes: 'strings',
        created_by: 'string',
        seconds_until_expiration: 'integer',
      }),
    },
    async handler(req, deps) {
      const type = req.fields.string('type');
      if (type !== undefined && type !== 'api_key')
        throw errors.paramValueInvalid('type', 'type must be api_key.');
      const input = {
        owner: ownerOfSubject(req.fields.string('subject')),
        name: req.fields.string('name'),
        description: req.fields.string('description'),
        claims: req.fields.object('claims') ?? null,
        scopes: req.fields.strings('scopes') ?? [],
        createdBy: req.fields.string('created_by') || null,
        secondsUntilExpiration: req.fields.integer('seconds_until_expiration'),
        expirations: 'any' as const,
      };
      if (!subjectAllowed(deps.settings.settings.apiKeys, input.owner)) throw apiKeyErrors.disabled();
      const now = deps.clock();
      const { row, secret } = await deps.db.transaction((tx) => createApiKey(tx, deps, input, now));
      // The secret, once, as Clerk's create answers it (the Frontend API reveals it on demand instead).
      return apiKeyJSON(row, now, secret);
    },
  },
  {
    method: 'POST',
    path: '/api_keys/verify',
    // Reads or mints; changes nothing the audit log records (docs/audit-log.md).
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ secret: 'string' }) },
    async handler(req, deps) {
      const now = deps.clock();
      const secret = req.fields.string('secret');
      const key = secret ? await verifyApiKeySecret(deps.db, deps, secret, now) : null;
      if (!key) throw errors.notFound('api_key');
      return apiKeyJSON(key, now);
    },
  },
  {
    method: 'POST',
    path: '/api_keys/:id/revoke',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ revocation_reason: 'string' }) },
    async handler(req, deps) {
      const now = deps.clock();
      const reason = req.fields.string('revocation_reason');
      const revoked = await deps.db.transaction(async (tx) => {
        const key = await findApiKeyById(tx, req.params.id!, true);
        if (!key) throw errors.notFound('api_key');
        return revokeApiKey(tx, key, reason, now);
      });
      return apiKeyJSON(revoked, now);
    },
  },
  {
    method: 'GET',
    path: '/api_keys/:id/secret',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const key = await findApiKeyById(deps.db, req.params.id!);
      if (!key) throw errors.notFound('api_key');
      return { secret: revealApiKeySecret(deps, key) };
    },
  },
];
