import type { AuditedRow } from '../store/audited-rows.ts';
import type { BapiRoute } from './route.ts';

/** The action and object the audit log records of a call of `route`, or null when it records none. */
export interface RouteAudit {
  action: string;
  objectType: string | null;
  objectId: string | null;
  /** The row the call changes and its columns that are body fields (`summary.before`), if declared. */
  before?: { row: AuditedRow; columns: readonly string[] };
}

const VERB_OF_METHOD: Record<string, string> = {
  POST: 'created',
  PATCH: 'updated',
  PUT: 'updated',
  DELETE: 'deleted',
};

/** `organizations` → `organization`, `identifier_lists` → `identifier_list`, `addresses` → `address`. */
function singular(word: string): string {
  if (word.endsWith('sses') || word.endsWith('xes')) return word.slice(0, -2);
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * What a call of `route` records: its declaration's `audit`, or else derived from its method and path.
 * `PATCH /v1/users/:user_id` → `user.updated` on the user; `POST /v1/sessions/:session_id/revoke` →
 * `session.revoke` on the session; `POST /v1/organizations/:organization_id/memberships` →
 * `membership.created` on the organisation; `POST /v1/users` → `user.created`.
 */
export function auditOf(route: BapiRoute, params: Record<string, string>): RouteAudit | null {
  if (route.audit === false || !VERB_OF_METHOD[route.method]) return null;
  const all = route.path.split('/').filter(Boolean);
  const segments = all[0] === 'v1' ? all.slice(1) : all;
  const verb = VERB_OF_METHOD[route.method]!;
  // The object: the last collection named with an id in the path.
  let objectType: string | null = null;
  let objectId: string | null = null;
  for (let i = segments.length - 1; i > 0; i--) {
    const seg = segments[i]!;
    const before = segments[i - 1]!;
    if (seg.startsWith(':') && !before.startsWith(':')) {
      objectType = singular(before);
      objectId = params[seg.slice(1)] ?? null;
      break;
    }
  }
  const last = segments[segments.length - 1] ?? '';
  let action: string;
  if (last.startsWith(':')) action = `${objectType}.${verb}`;
  else if (!objectType) {
    objectType = singular(last);
    action = `${objectType}.${verb}`;
  } else if (/s$/.test(last) && !/(status|access)$/.test(last)) action = `${singular(last)}.${verb}`;
  else action = route.method === 'POST' ? `${objectType}.${last}` : `${objectType}.${last}_${verb}`;
  const declared = route.audit;
  const before = declared?.before;
  return {
    action: declared?.action ?? action,
    objectType: declared?.object ?? objectType,
    objectId,
    ...(before && {
      before: {
        row: { kind: before.row, keys: before.params.map((name) => params[name] ?? '') },
        columns: before.columns,
      },
    }),
  };
}
