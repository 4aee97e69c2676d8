// A list page's body under its header (sites, forms, API tokens): the query's spinner or error until
// its first answer, then the listed things in a table, a row each, or the page's empty state.
import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { ColumnHeaders } from './column-headers';
import { DataTable, type DataTableProps } from './data-table';
import { QueryStatus } from './query-status';

interface ListTableProps<Item> extends Omit<DataTableProps, 'empty' | 'columns' | 'children'> {
  /** The query's list; undefined until it has answered. */
  items: readonly Item[] | undefined;
  error?: CombinedError;
  fetching: boolean;
  /** What loads, as QueryStatus names it: `sites`. */
  subject: string;
  /** An item's table row, with its key. */
  row: (item: Item) => ReactNode;
  /** The page's empty state, instead of the table when the list is empty. */
  empty: ReactNode;
  /** The column headers, in the order `row` renders its cells. */
  columns: readonly string[];
}

export function ListTable<Item>({
  items,
  error,
  fetching,
  subject,
  row,
  empty,
  columns,
  ...table
}: ListTableProps<Item>) {
  return (
    <>
      <QueryStatus data={items} error={error} fetching={fetching} subject={subject} />
      {items ? (
        <DataTable {...table} empty={items.length === 0 ? empty : null} columns={<ColumnHeaders names={columns} />}>
          {items.map((item) => row(item))}
        </DataTable>
      ) : null}
    </>
  );
}
