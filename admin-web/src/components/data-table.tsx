// A list page's table: the page's empty state in its place when there are no rows, else a
// striped table that scrolls with its key column fixed, with a caption that names it and a header row.
import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ScrollTable, type ScrollTableProps } from './scroll-table';

export interface DataTableProps {
  /** The page's empty state, in dimmed text instead of the table when set (no rows). */
  empty?: ReactNode;
  minWidth: number;
  scrollAreaProps?: ScrollTableProps['scrollAreaProps'];
  highlightOnHover?: boolean;
  caption: ReactNode;
  /** The header row's cells. */
  columns: ReactNode;
  /** The body rows. */
  children: ReactNode;
}

export function DataTable({
  empty,
  minWidth,
  scrollAreaProps,
  highlightOnHover,
  caption,
  columns,
  children,
}: DataTableProps) {
  if (empty !== null && empty !== undefined) {
    return <Text c="dimmed">{empty}</Text>;
  }
  return (
    <ScrollTable minWidth={minWidth} scrollAreaProps={scrollAreaProps} striped highlightOnHover={highlightOnHover}>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>{columns}</Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </ScrollTable>
  );
}
