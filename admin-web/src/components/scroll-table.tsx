// A table that stays usable on a phone: wider than the screen, it scrolls sideways inside its own
// container (its scrollbar shown, not only on hover, so a phone user sees there is more), and its
// first column, the key one, stays in place while the others pass under it.
import { Table, type TableProps, type TableScrollContainerProps } from '@mantine/core';
import classes from './scroll-table.module.css';

export interface ScrollTableProps extends Omit<TableProps, 'className'> {
  /** Below this width the table scrolls instead of squeezing its columns. */
  minWidth: number;
  scrollAreaProps?: TableScrollContainerProps['scrollAreaProps'];
}

export function ScrollTable({ minWidth, scrollAreaProps, children, ...table }: ScrollTableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth} scrollAreaProps={{ type: 'auto', ...scrollAreaProps }}>
      <Table verticalSpacing="sm" {...table} className={classes.table}>
        {children}
      </Table>
    </Table.ScrollContainer>
  );
}
