import { auditEventJSON } from '../../audit/audit-json.ts';
import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { listAuditEvents, type AuditFilter } from '../../store/audit-events.ts';
import { queryInput } from '../json-input.ts';
import { queryString } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';

type Query = Record<string, string | string[] | undefined>;

const ACTOR_TYPES = ['operator', 'secret_key', 'api_key', 'cli', 'user', 'system'];

/** A filter's text: one value, at most 255 characters. */
function textOf(query: Query, name: string): string | undefined {
  const value = queryString(query, name);
  if (value === undefined || value === '') return undefined;
  if (value.length > 255) throw errors.paramValueInvalid(name, `${name} must be at most 255 characters.`);
  return value;
}

/** A Unix time in milliseconds, as Clerk's `created_at_after` / `created_at_before` take it. */
function instantOf(query: Query, name: string): Date | undefined {
  const value = queryString(query, name);
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) throw errors.paramFormatInvalid(name, 'a whole number');
  return new Date(Number(value));
}

function filterOf(query: Query): AuditFilter {
  const actorKind = textOf(query, 'actor_type');
  if (actorKind !== undefined && !ACTOR_TYPES.includes(actorKind)) {
    throw errors.paramValueInvalid('actor_type', `actor_type must be one of ${ACTOR_TYPES.join(', ')}.`);
  }
  return {
    actorKind,
    actorId: textOf(query, 'actor_id'),
    action: textOf(query, 'action'),
    objectType: textOf(query, 'object_type'),
    objectId: textOf(query, 'object_id'),
    since: instantOf(query, 'created_at_after'),
    until: instantOf(query, 'created_at_before'),
  };
}

/**
 * Backend API: the audit log (our extension; hosted Clerk has none under this path). Newest first, read
 * only: no route changes or deletes an event (docs/audit-log.md).
 */
export const auditEventRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/audit_events',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({
        limit: 'page',
        offset: 'page',
        actor_type: 'enum',
        actor_id: 'text',
        action: 'text',
        object_type: 'text',
        object_id: 'text',
        created_at_after: 'text',
        created_at_before: 'text',
      }),
    },
    async handler(req, deps) {
      const filter = filterOf(req.query);
      const { rows, total } = await listAuditEvents(deps.db, filter, pageOf(req.query));
      return { data: rows.map(auditEventJSON), total_count: total };
    },
  },
];
