// A list page's table: the page's empty state in its place when there are no rows, else a
// striped table in a scroll container, with a caption that names it and a header row.
import { Table, Text, type TableScrollContainerProps } from '@mantine/core';
import type { ReactNode } from 'react';

export interface DataTableProps {
  /** The page's empty state, in dimmed text instead of the table when set (no rows). */
  empty?: ReactNode;
  minWidth: number;
  scrollAreaProps?: TableScrollContainerProps['scrollAreaProps'];
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
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={scrollAreaProps}>
      <Table striped highlightOnHover={highlightOnHover} verticalSpacing="sm">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>{columns}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
