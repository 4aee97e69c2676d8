// The page-header Refresh button of the lists that also refresh themselves (inbox, Spam, audit log).
import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';

export function RefreshButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={onClick}>
      Refresh
    </Button>
  );
}
