import { errors } from '../../errors.ts';
import { isJwtFormat, verifyM2mJwt } from '../../machines/m2m-jwt.ts';
import {
  createM2mToken,
  M2M_REASON_MAX_LENGTH,
  m2mTokenJSON,
  tokenFormatOf,
  verifyM2mToken,
} from '../../machines/m2m-tokens.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { findM2mToken, listM2mTokens, revokeM2mTokenRow } from '../../store/machines.ts';
import { jsonInput, queryInput } from '../json-input.ts';
import { queryFlag, queryString } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: machine-to-machine tokens, as @clerk/backend 2.10.1's `m2m` calls them
 * (api/endpoints/M2MTokenApi.ts): without `/v1` (`skipApiVersionInUrl`), with a machine's secret key as
 * the Bearer (`machineSecretKey`), or the instance's. Creating needs a machine's key (the token is that
 * machine's); a machine lists and revokes its own tokens and verifies those of the machines scoped to it;
 * the instance's key lists, revokes and verifies any. `authenticateRequest({ acceptsToken: 'm2m_token' })`
 * asks `verify`, and reads any 404 as an invalid token. Later versions' `list` and JWT format
 * (`token_format: 'jwt'`, machines/m2m-jwt.ts) are served as they send them.
 */
export const m2mTokenRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/m2m_tokens',
    auth: 'secret_key',
    permission: 'machine_or_instance_secret_key',
    input: {
      query: queryInput({ subject: 'text', revoked: 'flag', expired: 'flag', limit: 'page', offset: 'page' }),
    },
    async handler(req, deps) {
      const subject = queryString(req.query, 'subject');
      if (!subject) throw errors.paramMissing('subject');
      const filters = { revoked: queryFlag(req.query, 'revoked'), expired: queryFlag(req.query, 'expired') };
      const page = pageOf(req.query);
      // A machine's key lists its own tokens only: another machine's list is as empty as an unknown one's.
      if (req.machine && req.machine.id !== subject) return { m2m_tokens: [], total_count: 0 };
      const now = deps.clock();
      const { rows, total } = await listM2mTokens(deps.db, { machineId: subject, ...filters, ...page, now });
      // Clerk's own shape for this list (not `data`): @clerk/backend's deserializer reads `m2m_tokens`.
      return { m2m_tokens: rows.map((t) => m2mTokenJSON(t, now)), total_count: total };
    },
  },
  {
    method: 'POST',
    path: '/m2m_tokens',
    auth: 'secret_key',
    permission: 'machine_or_instance_secret_key',
    input: {
      body: jsonInput({ seconds_until_expiration: 'integer', claims: 'object', token_format: 'string' }),
    },
    async handler(req, deps) {
      const machine = req.machine;
      if (!machine) throw errors.machineSecretKeyRequired();
      const now = deps.clock();
      const input = {
        seconds: req.fields.integer('seconds_until_expiration'),
        claims: req.fields.object('claims'),
        format: tokenFormatOf(req.fields.string('token_format')),
      };
      return deps.db.transaction((tx) => createM2mToken(tx, deps, machine, input, now));
    },
  },
  {
    method: 'POST',
    path: '/m2m_tokens/verify',
    // Reads; changes nothing the audit log records (docs/audit-log.md).
    audit: false,
    auth: 'secret_key',
    permission: 'machine_or_instance_secret_key',
    input: { body: jsonInput({ token: 'string' }) },
    async handler(req, deps) {
      const now = deps.clock();
      const presented = req.fields.string('token');
      if (!presented) throw errors.paramMissing('token');
      if (isJwtFormat(presented)) {
        const verified = await verifyM2mJwt(deps.db, deps, presented, req.machine, now);
        if (!verified) throw errors.notFound('machine_to_machine_token');
        return verified;
      }
      const token = await verifyM2mToken(deps.db, deps, presented, req.machine, now);
      if (!token) throw errors.notFound('machine_to_machine_token');
      return m2mTokenJSON(token, now);
    },
  },
  {
    method: 'POST',
    path: '/m2m_tokens/:id/revoke',
    auth: 'secret_key',
    permission: 'machine_or_instance_secret_key',
    input: { body: jsonInput({ revocation_reason: 'string' }) },
    async handler(req, deps) {
      const now = deps.clock();
      const reason = req.fields.string('revocation_reason')?.trim() || null;
      if (reason && reason.length > M2M_REASON_MAX_LENGTH) {
        throw errors.paramMaxLength('revocation_reason', M2M_REASON_MAX_LENGTH);
      }
      return deps.db.transaction(async (tx) => {
        const token = await findM2mToken(tx, req.params.id!, true);
        // Another machine's token is as unknown to a machine as another instance's; a JWT token's id
        // (its `jti`) is unknown to all, as nothing of it is stored.
        if (!token || (req.machine && token.machine_id !== req.machine.id)) {
          throw errors.notFound('machine_to_machine_token');
        }
        // Revoked already: answered as it is, unchanged.
        const row = token.revoked_at ? token : await revokeM2mTokenRow(tx, token.id, reason, now);
        return m2mTokenJSON(row, now);
      });
    },
  },
];
