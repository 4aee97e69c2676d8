import { Anchor, Group, Title } from '@mantine/core';
import { IconHelp } from '@tabler/icons-react';
import { useEffect, type ReactNode } from 'react';
import { docsUrl, type DocsPage } from '../lib/docs';

interface PageHeaderProps {
  title: string;
  /** Buttons beside the heading. */
  actions?: ReactNode;
  /** The document title's first part (defaults to the heading). */
  documentTitle?: string;
  /** The documentation about this page, linked as "Help" beside the heading. */
  help?: DocsPage;
}

/** The page's one level-1 heading, mirrored in the document title for tabs and screen readers. */
export function PageHeader({ title, actions, documentTitle, help }: PageHeaderProps) {
  const shownTitle = documentTitle ?? title;
  useEffect(() => {
    document.title = `${shownTitle} · Intake console`;
  }, [shownTitle]);
  return (
    <Group justify="space-between" align="center" mb="md" wrap="wrap" gap="sm">
      <Group gap="sm" align="baseline" wrap="wrap">
        <Title order={1} size="h2">
          {title}
        </Title>
        {help ? <HelpLink page={help} topic={shownTitle} /> : null}
      </Group>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}

/** "Help": the page's documentation in a new tab (its name starts with what it shows, for voice control). */
function HelpLink({ page, topic }: { page: DocsPage; topic: string }) {
  return (
    <Anchor
      href={docsUrl(page)}
      target="_blank"
      rel="noopener"
      size="sm"
      aria-label={`Help: ${topic} (opens in a new tab)`}
    >
      <Group gap={4} component="span" wrap="nowrap">
        <IconHelp size={16} aria-hidden />
        Help
      </Group>
    </Anchor>
  );
}
