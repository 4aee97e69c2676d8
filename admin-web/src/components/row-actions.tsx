// A list row's buttons: the row's own actions, then Delete, always last and always red (absent for
// someone who may not delete).
import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export function DeleteButton({ onClick }: { onClick: () => void }) {
  return (
    <Button size="xs" variant="light" color="red" onClick={onClick}>
      Delete
    </Button>
  );
}

export function RowActions({ children, onDelete }: { children?: ReactNode; onDelete?: () => void }) {
  return (
    <Group gap="xs" wrap="nowrap">
      {children}
      {onDelete ? <DeleteButton onClick={onDelete} /> : null}
    </Group>
  );
}
