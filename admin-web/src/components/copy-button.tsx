import { Button, CopyButton as MantineCopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

interface CopyButtonProps {
  value: string;
  /** The button's accessible name; `Copy` unless the page has several. */
  label?: string;
}

/** Copies `value` to the clipboard; the name stays the same, the text says when it is done. */
export function CopyButton({ value, label = 'Copy' }: CopyButtonProps) {
  return (
    <MantineCopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : label} withArrow>
          <Button
            variant="light"
            size="xs"
            onClick={copy}
            aria-label={label}
            leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </Tooltip>
      )}
    </MantineCopyButton>
  );
}
