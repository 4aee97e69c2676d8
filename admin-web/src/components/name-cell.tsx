// A list row's header cell: the thing's name, linking to its page.
import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { decodeStoredText } from '../lib/decode-stored-text';

export function NameCell({ name, to }: { name: string; to: string }) {
  return (
    <Table.Th scope="row" fw="normal">
      <Anchor component={Link} to={to}>
        {decodeStoredText(name)}
      </Anchor>
    </Table.Th>
  );
}
