import { HttpError, type HttpClient } from '../../../lib/http/index.ts';
import { withQuery } from '../api/console-api.ts';
import type { AuditFilters } from '../api/console-queries.ts';

/**
 * Downloads the events the filters select as JSON lines (GET /console/api/audit-events/export, with the
 * session token, so not a plain link): the file `audit-events.jsonl`.
 */
export async function exportAuditEvents(client: HttpClient, filters: AuditFilters): Promise<void> {
  const response = await client.request(withQuery('/audit-events/export', { ...filters }), {
    cache: 'no-store',
  });
  if (!response.ok) throw new HttpError(`The export failed (HTTP ${response.status}).`, response.status);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = 'audit-events.jsonl';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
