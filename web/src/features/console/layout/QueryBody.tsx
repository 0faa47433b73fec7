import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadError } from '../../../ui/LoadError.tsx';
import { Loading } from '../../../ui/Loading.tsx';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';

/**
 * A console list's four states, the same on every page: loading, an error with a retry, an empty list, or
 * the list itself (`children`). Test ids are `testId` followed by `-loading`, `-error` and `-empty`.
 */
export function QueryBody<T extends { data: readonly unknown[] }>({
  query,
  what,
  empty,
  testId,
  children,
}: {
  query: UseQueryResult<T>;
  /** What failed to load, for the error's sentence. */
  what: string;
  /** What an empty list says. */
  empty: string;
  testId: string;
  children: (data: T) => ReactNode;
}) {
  const errorText = useConsoleErrorText();
  if (query.isPending) return <Loading testId={`${testId}-loading`} />;
  if (query.isError)
    return (
      <LoadError
        what={what}
        message={errorText(query.error)}
        testId={`${testId}-error`}
        onRetry={() => void query.refetch()}
      />
    );
  if (query.data.data.length === 0)
    return (
      <p className="muted" data-testid={`${testId}-empty`}>
        {empty}
      </p>
    );
  return children(query.data);
}
