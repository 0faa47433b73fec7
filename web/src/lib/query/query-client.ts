import { QueryClient } from '@tanstack/react-query';
import { HttpError } from '../http/http-error.ts';

/** Attempts after the first one for a read that failed for a reason that may pass. */
export const MAX_READ_RETRIES = 2;

/**
 * Whether a failed read is worth sending again: no answer or a server error (5xx) may pass; a refusal
 * (4xx: not signed in, forbidden, not found, invalid) and our own checks answer the same however often
 * they are asked.
 */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_READ_RETRIES || !(error instanceof HttpError)) return false;
  return error.status === null || error.status >= 500;
}

/**
 * The one cache of product data. Reads retry as above; writes never retry (a POST that reached the
 * server before the connection dropped must not run twice). Answers stay fresh for a short while so
 * pages opened one after the other share one request, and are not refetched on window focus: every
 * answer depends on the session, which the pages already follow through the auth state.
 */
export function createQueryClient({ retryDelay }: { retryDelay?: number } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryRead,
        ...(retryDelay !== undefined ? { retryDelay } : {}),
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
