import { errors } from '../../errors.ts';
import {
  checkedName,
  checkedTtl,
  createMachine,
  DEFAULT_TOKEN_TTL,
  machineAnswer,
  machineJSON,
  MAX_PREVIOUS_KEY_DELAY,
  requireMachine,
  revealMachineSecret,
  rotateMachineSecret,
} from '../../machines/machines.ts';
import {
  deleteMachine,
  deleteMachineScope,
  findMachine,
  insertMachineScope,
  listMachines,
  scopedMachinesOf,
  updateMachine,
} from '../../store/machines.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { jsonInput, queryInput } from '../json-input.ts';
import { queryString } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';

const QUERY_MAX_LENGTH = 256;

/**
 * Backend API: machines, as @clerk/backend 2.10.1's `machines` calls them (api/endpoints/MachineApi.ts),
 * and the rotation of a machine's secret key its later versions call. A machine is a service of the
 * operator's with a secret key of its own (`ak_…`), with which it makes machine-to-machine tokens
 * (m2m-token-routes.ts); a scope from one machine to another lets the second accept the first's tokens.
 */
export const machineRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/machines',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ limit: 'page', offset: 'page', query: 'text' }) },
    async handler(req, deps) {
      const page = pageOf(req.query);
      const query = queryString(req.query, 'query');
      if (query && query.length > QUERY_MAX_LENGTH) throw errors.paramMaxLength('query', QUERY_MAX_LENGTH);
      const { rows, total } = await listMachines(deps.db, { query, ...page });
      const scoped = await scopedMachinesOf(
        deps.db,
        rows.map((m) => m.id),
      );
      // Always the paginated shape: the SDK's list reads `{data, total_count}` and sends no flag.
      return { data: rows.map((m) => machineJSON(m, scoped.get(m.id) ?? [])), total_count: total };
    },
  },
  {
    method: 'POST',
    path: '/v1/machines',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      body: jsonInput({ name: 'string', scoped_machines: 'strings', default_token_ttl: 'integer' }),
    },
    async handler(req, deps) {
      const name = checkedName(req.fields.string('name'), true)!;
      const ttl = checkedTtl(req.fields.integer('default_token_ttl')) ?? DEFAULT_TOKEN_TTL;
      const scopedMachines = req.fields.strings('scoped_machines') ?? [];
      const now = deps.clock();
      return deps.db.transaction((tx) => createMachine(tx, deps, { name, ttl, scopedMachines }, now));
    },
  },
  {
    method: 'GET',
    path: '/v1/machines/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      return machineAnswer(deps.db, await requireMachine(deps.db, req.params.id!));
    },
  },
  {
    method: 'PATCH',
    path: '/v1/machines/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ name: 'string', default_token_ttl: 'integer' }) },
    async handler(req, deps) {
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const machine = await requireMachine(tx, req.params.id!, true);
        const name = checkedName(req.fields.string('name'), false);
        const ttl = checkedTtl(req.fields.integer('default_token_ttl'));
        const updated = await updateMachine(tx, machine.id, { name, ttl }, now);
        return machineAnswer(tx, updated);
      });
    },
  },
  {
    method: 'DELETE',
    path: '/v1/machines/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      return deps.db.transaction(async (tx) => {
        const machine = await requireMachine(tx, req.params.id!, true);
        const answer = await machineAnswer(tx, machine);
        // Its scopes, both ways, and its tokens go with it: they stop verifying at once.
        await deleteMachine(tx, machine.id);
        return answer;
      });
    },
  },
  {
    method: 'GET',
    path: '/v1/machines/:id/secret_key',
    // Reads a credential; changes nothing the audit log records, but it is the operator's to know.
    audit: false,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const machine = await requireMachine(deps.db, req.params.id!);
      return { object: 'machine_secret_key', secret: revealMachineSecret(deps, machine) };
    },
  },
  {
    method: 'POST',
    path: '/v1/machines/:id/secret_key/rotate',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ previous_token_delay: 'integer' }) },
    async handler(req, deps) {
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const machine = await requireMachine(tx, req.params.id!, true);
        const delay = req.fields.integer('previous_token_delay') ?? 0;
        if (delay < 0 || delay > MAX_PREVIOUS_KEY_DELAY) {
          throw errors.paramValueInvalid(
            'previous_token_delay',
            `previous_token_delay must be a whole number of seconds between 0 and ${MAX_PREVIOUS_KEY_DELAY}.`,
          );
        }
        const secret = await rotateMachineSecret(tx, deps, machine, delay, now);
        return { object: 'machine_secret_key', secret };
      });
    },
  },
  {
    method: 'POST',
    path: '/v1/machines/:id/scopes',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ to_machine_id: 'string' }) },
    async handler(req, deps) {
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        const from = await requireMachine(tx, req.params.id!, true);
        const toId = req.fields.string('to_machine_id');
        if (!toId) throw errors.paramMissing('to_machine_id');
        if (toId === from.id) {
          throw errors.paramValueInvalid('to_machine_id', 'A machine cannot be scoped to itself.');
        }
        if (!(await findMachine(tx, toId))) throw errors.notFound('machine');
        const scope = await insertMachineScope(tx, from.id, toId, now);
        return {
          object: 'machine_scope',
          from_machine_id: from.id,
          to_machine_id: toId,
          created_at: scope.created_at.getTime(),
        };
      });
    },
  },
  {
    method: 'DELETE',
    path: '/v1/machines/:id/scopes/:other',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      return deps.db.transaction(async (tx) => {
        const from = await requireMachine(tx, req.params.id!, true);
        if (!(await deleteMachineScope(tx, from.id, req.params.other!)))
          throw errors.notFound('machine_scope');
        return {
          object: 'machine_scope',
          from_machine_id: from.id,
          to_machine_id: req.params.other!,
          deleted: true,
        };
      });
    },
  },
];
