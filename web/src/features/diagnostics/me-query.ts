import { queryOptions } from '@tanstack/react-query';
import type { HttpClient } from '../../lib/http/client.ts';
import { fetchMe } from '../../lib/product-api.ts';
import { scopeKey, type QueryScope } from '../../lib/query/query-scope.ts';

export const meKey = (scope: QueryScope) => [...scopeKey(scope), 'me'] as const;

/** GET /api/me: who the product server says the session token belongs to. Always asked afresh. */
export function meQuery(client: HttpClient, scope: QueryScope) {
  return queryOptions({
    queryKey: meKey(scope),
    queryFn: ({ signal }) => fetchMe(client, { signal }),
    // The page proves the token is accepted now; an answer from an earlier visit proves nothing.
    staleTime: 0,
    enabled: scope.userId !== null,
  });
}
