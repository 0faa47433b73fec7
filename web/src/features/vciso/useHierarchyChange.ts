import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HttpClient } from '../../lib/http/client.ts';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { useQueryScope } from '../../lib/query/query-scope.ts';
import { hierarchyChange } from './hierarchy-queries.ts';
import { useVcisoErrorMessage } from './useVcisoErrorMessage.ts';

/**
 * A console form's request (create, attach, detach): busy while it runs, its failure as a message for
 * people (worded at render, so it follows the interface language), and the organisation's data read
 * again after it succeeds.
 */
export function useHierarchyChange<Input, Result>(
  write: (client: HttpClient, input: Input) => Promise<Result>,
) {
  const errorMessage = useVcisoErrorMessage();
  const mutation = useMutation(hierarchyChange(useHttpClient(), useQueryClient(), useQueryScope(), write));
  return {
    busy: mutation.isPending,
    error: mutation.isError ? errorMessage(mutation.error) : null,
    /** Rejects on failure, for callers that show it their own way. */
    mutateAsync: mutation.mutateAsync,
    /** Resolves with the answer, or with undefined once the failure is on show. */
    run: (input: Input): Promise<Result | undefined> => mutation.mutateAsync(input).catch(() => undefined),
  };
}
