import type { ReactNode } from 'react';

/** A column of a console table: its heading (none for a column of buttons) and what each row shows in it. */
export interface Column<T> {
  header?: ReactNode;
  cell: (row: T) => ReactNode;
  /** The cell's test id, the same on every row. */
  testId?: string;
}

/** A row's own attributes: its test id and the `data-*` values tests find it by. */
export type RowAttributes = { [name: `data-${string}`]: string | undefined };

export interface ConsoleTableProps<T> {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string | number;
  rowAttributes?: (row: T) => RowAttributes;
  /** The row's buttons, in its last cell. */
  actions?: (row: T) => ReactNode;
  actionsClassName?: string;
  testId: string;
  /** What shows instead of the table when there are no rows (the table, empty, when not given). */
  empty?: ReactNode;
  /** The test id of what shows when there are no rows. */
  emptyTestId?: string;
}

/**
 * The console's tables: a heading row (left out when no column has a heading), then a row a record.
 * `actions` fills the last cell of each row, under an empty heading: the row's buttons.
 */
export function ConsoleTable<T>({
  rows,
  columns,
  rowKey,
  rowAttributes,
  actions,
  actionsClassName,
  testId,
  empty,
  emptyTestId,
}: ConsoleTableProps<T>) {
  if (rows.length === 0 && empty !== undefined)
    return (
      <p className="muted" data-testid={emptyTestId}>
        {empty}
      </p>
    );
  const headed = columns.some((column) => column.header !== undefined);
  return (
    <table className="console__table" data-testid={testId}>
      {headed && (
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index}>{column.header}</th>
            ))}
            {actions && <th />}
          </tr>
        </thead>
      )}
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowAttributes?.(row)}>
            {columns.map((column, index) => (
              <td key={index} data-testid={column.testId}>
                {column.cell(row)}
              </td>
            ))}
            {actions && <td className={actionsClassName}>{actions(row)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
