import { ClerkError, errors } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { listedIdentifierJSON, parseListedIdentifier } from '../../identifier-lists/listed-identifier.ts';
import {
  deleteListedIdentifier,
  insertListedIdentifier,
  listListedIdentifiers,
  type IdentifierList,
} from '../../store/identifier-lists.ts';
import type { BapiRoute } from '../route.ts';
import { queryFlag } from '../request-input.ts';
import { jsonInput, queryInput } from '../json-input.ts';

/**
 * Backend API: the allowlist and the blocklist (`@clerk/backend` 2.10.1's `allowlistIdentifiers` and
 * `blocklistIdentifiers`). The two lists have the same three routes; what they keep out is enforced by
 * identifier-lists/enforce-lists.ts. The allowlist's list is `{data, total_count}` with `paginated=true`
 * (as the SDK asks) and the bare array otherwise; the blocklist's is always `{data, total_count}`, as
 * Clerk answers each.
 */

const OBJECT = { allowlist: 'allowlist_identifier', blocklist: 'blocklist_identifier' } as const;
const PREFIX = { allowlist: 'alid', blocklist: 'blid' } as const;
const LIST_NAME = { allowlist: 'allowlist', blocklist: 'blocklist' } as const;

const duplicate = (list: IdentifierList) =>
  new ClerkError(
    422,
    'duplicate_record',
    'duplicate record',
    `This identifier is already on the ${LIST_NAME[list]}.`,
    { param_name: 'identifier' },
  );

function routesOf(list: IdentifierList): BapiRoute[] {
  const path = `/v1/${OBJECT[list]}s`;
  return [
    {
      method: 'GET',
      path,
      auth: 'secret_key',
      permission: 'instance_secret_key',
      input: { query: queryInput({ limit: 'page', offset: 'page', paginated: 'flag' }) },
      async handler(req, deps) {
        // Read first, so a malformed flag is refused before anything is.
        const paginated = queryFlag(req.query, 'paginated');
        const page = pageOf(req.query);
        const found = await listListedIdentifiers(deps.db, list, page);
        const data = found.data.map((row) => listedIdentifierJSON(OBJECT[list], row));
        if (list === 'allowlist' && !paginated) return data;
        return { data, total_count: found.total };
      },
    },
    {
      method: 'POST',
      path,
      auth: 'secret_key',
      permission: 'instance_secret_key',
      input: {
        body: jsonInput(
          list === 'allowlist' ? { identifier: 'string', notify: 'boolean' } : { identifier: 'string' },
        ),
      },
      async handler(req, deps) {
        const raw = req.fields.string('identifier');
        if (!raw) throw errors.paramMissing('identifier');
        const parsed = parseListedIdentifier(raw, { testMode: deps.config.mode === 'development' });
        // `notify` (an invitation mailed to an allowlisted address) is accepted; none is sent (docs/backend-api.md).
        if (list === 'allowlist') req.fields.boolean('notify');
        const row = await insertListedIdentifier(deps.db, list, {
          id: newId(PREFIX[list]),
          identifier: parsed.identifier,
          type: parsed.type,
          now: deps.clock(),
        });
        if (!row) throw duplicate(list);
        return listedIdentifierJSON(OBJECT[list], row);
      },
    },
    {
      method: 'DELETE',
      path: `${path}/:id`,
      auth: 'secret_key',
      permission: 'instance_secret_key',
      input: {},
      async handler(req, deps) {
        const id = req.params.id!;
        if (!(await deleteListedIdentifier(deps.db, list, id)))
          throw errors.notFound(OBJECT[list].replace('_', ' '));
        return { object: OBJECT[list], id, deleted: true };
      },
    },
  ];
}

export const identifierListRoutes: BapiRoute[] = [...routesOf('allowlist'), ...routesOf('blocklist')];
