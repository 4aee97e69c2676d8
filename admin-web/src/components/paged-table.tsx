// The table part of a paged, newest-first list (inbox, Spam, audit log): the table (or the
// page's empty state), then the Newer/Older pager under either.
import { DataTable, type DataTableProps } from './data-table';
import { NewerOlderPager, type NewerOlderPagerProps } from './newer-older-pager';

interface PagedTableProps extends DataTableProps {
  pager: NewerOlderPagerProps;
}

export function PagedTable({ pager, ...table }: PagedTableProps) {
  return (
    <>
      <DataTable {...table} />
      <NewerOlderPager {...pager} />
    </>
  );
}
