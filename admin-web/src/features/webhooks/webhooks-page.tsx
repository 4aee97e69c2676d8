// A form's webhooks: each with its health, its actions (enable or disable, send a test, rotate the
// signing secret, delete) and its delivery log; a new webhook's secret is shown once. Below them, the
// form's notification e-mails and their log. The card, the dialogs and the logs are in their own files.
import { Code, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from 'urql';
import { NewButton } from '../../components/new-button';
import { PageHeader } from '../../components/page-header';
import { QueryStatus } from '../../components/query-status';
import { FormWebhooksDocument } from '../../gql/graphql';
import { usePolling } from '../../lib/use-polling';
import { EmailLog } from './email-log';
import { NewWebhookDialog } from './new-webhook-dialog';
import { SecretDialog } from './signing-secret-dialog';
import { POLL_INTERVAL_MS } from './use-polled-deliveries';
import { WebhookCard } from './webhook-card';

export function WebhooksPage() {
  const { siteId = '', formId = '' } = useParams();
  const context = useMemo(() => ({ additionalTypenames: ['Webhook'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery({
    query: FormWebhooksDocument,
    variables: { formId },
    context,
  });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  // Health (failing since, disabled after failures) changes as the worker delivers.
  usePolling(reload, POLL_INTERVAL_MS);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  return (
    <>
      <PageHeader
        title="Webhooks"
        help="webhooks"
        actions={<NewButton onClick={() => setCreating(true)}>New webhook</NewButton>}
      />
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          Each new submission is POSTed to every enabled webhook as a signed <Code>submission.created</Code> event, or
          as a chat platform&apos;s message for a Slack, Mattermost, Teams, Discord or Google Chat webhook, retried for
          days when the receiver fails.
        </Text>
        <QueryStatus data={data} error={error} fetching={fetching} subject="webhooks" />
        {data && data.webhooks.length === 0 ? (
          <Text>This form has no webhooks yet. Add one with New webhook.</Text>
        ) : null}
        {data?.webhooks.map((webhook) => (
          <WebhookCard
            key={webhook.id}
            webhook={webhook}
            onSecret={(url, value) => setSecret({ url, secret: value })}
            onChanged={reload}
          />
        ))}
        <EmailLog siteId={siteId} formId={formId} />
      </Stack>
      <NewWebhookDialog
        formId={formId}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(url, value) => {
          setCreating(false);
          if (value !== null) {
            setSecret({ url, secret: value });
          }
          reload();
        }}
      />
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
    </>
  );
}
