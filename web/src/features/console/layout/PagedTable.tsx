import type { UseQueryResult } from '@tanstack/react-query';
import type { Page } from '../api/types.ts';
import { ConsoleTable, type ConsoleTableProps } from './ConsoleTable.tsx';
import { Pager } from './Pager.tsx';
import { QueryBody } from './QueryBody.tsx';

/**
 * A page of a console list: its four states (QueryBody, whose test ids start with `testId`), the page's
 * rows as a ConsoleTable (test id `tableTestId`, `${testId}-table` unless given) and its pager.
 */
export function PagedTable<T>({
  query,
  what,
  empty,
  testId,
  tableTestId = `${testId}-table`,
  offset,
  size,
  onPage,
  ...table
}: Omit<ConsoleTableProps<T>, 'rows' | 'testId'> & {
  query: UseQueryResult<Page<T>>;
  what: string;
  empty: string;
  testId: string;
  tableTestId?: string;
  offset: number;
  size: number;
  onPage: (offset: number) => void;
}) {
  return (
    <QueryBody query={query} what={what} empty={empty} testId={testId}>
      {(data) => (
        <>
          <ConsoleTable {...table} rows={data.data} testId={tableTestId} />
          <Pager offset={offset} size={size} total={data.total_count} onChange={onPage} />
        </>
      )}
    </QueryBody>
  );
}
