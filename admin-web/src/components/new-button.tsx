// A list page's "New …" button in its header.
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export function NewButton({ children, onClick }: { children: ReactNode; onClick: () => void }) {
  return (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onClick}>
      {children}
    </Button>
  );
}
