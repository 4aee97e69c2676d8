import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ConfirmDialogProps {
  opened: boolean;
  /** The dialog's heading, e.g. `Delete site Shop?` */
  title: string;
  /** What follows from confirming, in words. */
  children: ReactNode;
  /** The confirming button's name: the action itself (`Delete site`), never a bare `OK`. */
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  pending?: boolean;
  danger?: boolean;
}

/** A confirmation for a destructive action; `Cancel` has the focus, so Enter never destroys by accident. */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  pending = false,
  danger = true,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        <Text component="div">{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
