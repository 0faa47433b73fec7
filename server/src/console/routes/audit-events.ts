import { z } from '@app/contract';
import { consoleRoute } from '../console-route.ts';

const text = z.string().trim().max(255).optional();
const instant = z
  .string()
  .regex(/^\d{1,15}$/, 'a Unix time in milliseconds')
  .optional();

/** The filters `GET /v1/audit_events` takes (docs/audit-log.md), as the console passes them on. */
const auditFilters = {
  actor_type: z.enum(['operator', 'secret_key', 'api_key', 'cli', 'user', 'system']).optional(),
  actor_id: text,
  action: text,
  object_type: text,
  object_id: text,
  created_at_after: instant,
  created_at_before: instant,
};

/** Empty filters are no filters. */
const given = (filters: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''));

/** GET /console/api/audit-events — the audit log, newest first, with its filters: `{ data, total_count }`. */
export const listAuditEventsRoute = consoleRoute({
  method: 'GET',
  path: '/audit-events',
  permission: 'operator',
  input: {
    query: z.object({
      ...auditFilters,
      limit: z.coerce.number().int().min(1).max(100).default(25),
      offset: z.coerce.number().int().min(0).max(100_000).default(0),
    }),
  },
  async handler({ operator, query: { limit, offset, ...filters } }, { backend }) {
    return backend.call<{ data: unknown[]; total_count: number }>('GET', '/audit_events', {
      operatorId: operator.userId,
      query: { ...given(filters), limit, offset },
    });
  },
});

/** The most events one export carries: past it, narrow the dates. */
export const EXPORT_LIMIT = 20_000;
const EXPORT_PAGE = 500;

/**
 * GET /console/api/audit-events/export — the events the filters select as JSON lines (the objects of
 * `GET /v1/audit_events`, newest first, at most EXPORT_LIMIT), downloaded as `audit-events.jsonl`.
 */
export const exportAuditEventsRoute = consoleRoute({
  method: 'GET',
  path: '/audit-events/export',
  permission: 'operator',
  input: { query: z.object(auditFilters) },
  async handler({ operator, reply, query }, { backend }) {
    const lines: string[] = [];
    for (let offset = 0; offset < EXPORT_LIMIT; offset += EXPORT_PAGE) {
      const page = await backend.call<{ data: unknown[] }>('GET', '/audit_events', {
        operatorId: operator.userId,
        query: { ...given(query), limit: EXPORT_PAGE, offset },
      });
      for (const event of page.data) lines.push(JSON.stringify(event));
      if (page.data.length < EXPORT_PAGE) break;
    }
    return reply
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', 'attachment; filename="audit-events.jsonl"')
      .header('cache-control', 'no-store')
      .send(lines.length ? `${lines.join('\n')}\n` : '');
  },
});

export const auditConsoleRoutes = [listAuditEventsRoute, exportAuditEventsRoute];
