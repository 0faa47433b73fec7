import { useQuery } from '@tanstack/react-query';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { useQueryScope } from '../../lib/query/query-scope.ts';
import type { Me } from '../../lib/product-api.ts';
import { meQuery } from './me-query.ts';

export type ApiMeState =
  | { status: 'loading' }
  | { status: 'verified'; me: Me; checkedAt: Date }
  /** The failure itself: the page words it in the interface language, which may change meanwhile. */
  | { status: 'error'; error: unknown };

/** Asks the product API who the current session belongs to, on mount and whenever `check` is called. */
export function useApiMe(): { state: ApiMeState; check: () => void } {
  const query = useQuery(meQuery(useHttpClient(), useQueryScope()));
  const check = () => void query.refetch();
  // A check in progress hides the previous result, so a new verification is observable as such.
  if (query.isFetching || query.isPending) return { state: { status: 'loading' }, check };
  if (query.isError) return { state: { status: 'error', error: query.error }, check };
  return { state: { status: 'verified', me: query.data, checkedAt: new Date(query.dataUpdatedAt) }, check };
}
