import { Button, CopyButton as MantineCopyButton, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

interface CopyButtonProps {
  value: string;
  /** The button's accessible name; `Copy` unless the page has several. */
  label?: string;
}

/**
 * Copies `value` to the clipboard. The visible text stays `Copy` (part of the name, as WCAG 2.5.3
 * asks); the icon and the tooltip say when it is done, and a status message tells screen readers.
 */
export function CopyButton({ value, label = 'Copy' }: CopyButtonProps) {
  return (
    <MantineCopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <>
          <Tooltip label={copied ? 'Copied' : label} withArrow>
            <Button
              variant="default"
              size="xs"
              onClick={copy}
              aria-label={label}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            >
              Copy
            </Button>
          </Tooltip>
          <VisuallyHidden role="status">{copied ? 'Copied' : ''}</VisuallyHidden>
        </>
      )}
    </MantineCopyButton>
  );
}
