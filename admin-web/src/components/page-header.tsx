import { Group, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

interface PageHeaderProps {
  title: string;
  /** Buttons beside the heading. */
  actions?: ReactNode;
  /** The document title's first part (defaults to the heading). */
  documentTitle?: string;
}

/** The page's one level-1 heading, mirrored in the document title for tabs and screen readers. */
export function PageHeader({ title, actions, documentTitle }: PageHeaderProps) {
  const shownTitle = documentTitle ?? title;
  useEffect(() => {
    document.title = `${shownTitle} · Intake console`;
  }, [shownTitle]);
  return (
    <Group justify="space-between" align="center" mb="md" wrap="wrap" gap="sm">
      <Title order={1} size="h2">
        {title}
      </Title>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}
