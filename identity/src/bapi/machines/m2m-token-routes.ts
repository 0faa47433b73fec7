import { errors } from '../../errors.ts';
import {
  createM2mToken,
  M2M_REASON_MAX_LENGTH,
  m2mTokenJSON,
  verifyM2mToken,
} from '../../machines/m2m-tokens.ts';
import { findM2mToken, revokeM2mTokenRow } from '../../store/machines.ts';
import { jsonInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: machine-to-machine tokens, as @clerk/backend 2.10.1's `m2m` calls them
 * (api/endpoints/M2MTokenApi.ts): without `/v1` (`skipApiVersionInUrl`), with a machine's secret key as
 * the Bearer (`machineSecretKey`), or the instance's. Creating needs a machine's key (the token is that
 * machine's); a machine revokes its own tokens and verifies those of the machines scoped to it; the
 * instance's key revokes and verifies any. `authenticateRequest({ acceptsToken: 'm2m_token' })` asks
 * `verify`, and reads any 404 as an invalid token.
 */
export const m2mTokenRoutes: BapiRoute[] = [
  {
    method: 'POST',
    path: '/m2m_tokens',
    auth: 'secret_key',
    permission: 'machine_or_instance_secret_key',
    input: { body: jsonInput({ seconds_until_expiration: 'integer', claims: 'object' }) },
    async handler(req, deps) {
      const machine = req.machine;
      if (!machine) throw errors.machineSecretKeyRequired();
      const now = deps.clock();
      const input = {
        seconds: req.fields.integer('seconds_until_expiration'),
        claims: req.fields.object('claims'),
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
        // Another machine's token is as unknown to a machine as another instance's.
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
