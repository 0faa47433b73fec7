import { queryFlag } from './request-input.ts';

type Query = Record<string, string | string[] | undefined>;

/**
 * A list as Clerk answers it: `{data, total_count}` when the caller asks `paginated=true` (as
 * @clerk/backend's list methods all do), else the bare array of older callers.
 */
export function pagedAnswer<T>(
  query: Query,
  data: T[],
  total: number,
): { data: T[]; total_count: number } | T[] {
  return queryFlag(query, 'paginated') ? { data, total_count: total } : data;
}
