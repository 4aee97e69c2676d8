// A table's header cells, one per column name, scoped to their columns for screen readers.
import { Table } from '@mantine/core';

export function ColumnHeaders({ names }: { names: readonly string[] }) {
  return (
    <>
      {names.map((name) => (
        <Table.Th scope="col" key={name}>
          {name}
        </Table.Th>
      ))}
    </>
  );
}
