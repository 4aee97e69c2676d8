// A form's webhooks: each with its health, its actions (enable or disable, send a test, rotate the
// signing secret, delete) and its delivery log; a new webhook's secret is shown once. Below them, the
// form's notification e-mails and their log.
import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  type TextProps,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, type AnyVariables, type TypedDocumentNode } from 'urql';
import { ConfirmDialog, type ConfirmDialogProps } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { ErrorAlert } from '../../components/error-alert';
import { notifyOutcome, notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { DeleteButton } from '../../components/row-actions';
import { NewButton } from '../../components/new-button';
import { QueryStatus } from '../../components/query-status';
import {
  CreateWebhookDocument,
  DeleteWebhookDocument,
  EmailDeliveriesDocument,
  FormWebhooksDocument,
  RotateWebhookSecretDocument,
  SendTestWebhookDocument,
  SetWebhookEnabledDocument,
  WebhookDeliveriesDocument,
} from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { formatDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { usePolling } from '../../lib/use-polling';
import { DeliveryLog, type DeliveryRow } from './delivery-log';

const POLL_INTERVAL_MS = 5000;
const LOG_SIZE = 20;

interface WebhookRow {
  id: string;
  url: string;
  description?: string | null;
  enabled: boolean;
  failingSince?: string | null;
  disabledAt?: string | null;
  disabledReason?: string | null;
  lastSuccessAt?: string | null;
}

/** A signing secret, shown once: after a create or a rotation. */
function SecretDialog({ shown, onClose }: { shown: { url: string; secret: string } | null; onClose: () => void }) {
  return (
    <Modal opened={shown !== null} onClose={onClose} title="Signing secret" centered size="lg">
      <Stack>
        <Text size="sm">
          The secret of <Code style={{ wordBreak: 'break-all' }}>{shown?.url}</Code>, shown this once: keep it with the
          receiver, which checks each request&apos;s <Code>webhook-signature</Code> header with it (Standard Webhooks).
        </Text>
        <Code block data-testid="webhook-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {shown?.secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={shown?.secret ?? ''} />
          <Button onClick={onClose} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function NewWebhookDialog({
  formId,
  opened,
  onClose,
  onCreated,
}: {
  formId: string;
  opened: boolean;
  onClose: () => void;
  onCreated: (url: string, secret: string) => void;
}) {
  const [{ fetching, error }, createWebhook] = useMutation(CreateWebhookDocument);
  const form = useForm({ mode: 'uncontrolled', initialValues: { url: '', description: '' } });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    const url = values.url.trim();
    if (url === '') {
      form.setFieldError('url', 'Enter the URL that receives the events');
      return;
    }
    const description = values.description.trim();
    const result = await createWebhook(
      { input: { formId, url, description: description === '' ? null : description } },
      { additionalTypenames: ['Webhook'] },
    );
    if (result.error || !result.data) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    notifySuccess('Webhook created');
    form.reset();
    onCreated(result.data.createWebhook.webhook.url, result.data.createWebhook.secret);
  });
  return (
    <Modal opened={opened} onClose={close} title="New webhook" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="URL"
            description="http:// or https://, where each event is POSTed, signed"
            placeholder="https://crm.example.com/hooks/intake"
            required
            type="url"
            data-autofocus
            key={form.key('url')}
            {...form.getInputProps('url')}
          />
          <TextInput
            label="Description"
            description="Optional: what receives it"
            key={form.key('description')}
            {...form.getInputProps('description')}
          />
          <ErrorAlert error={error} fieldsShownElsewhere={['url', 'description']} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Create webhook
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A delivery log's newest LOG_SIZE entries, refetched every POLL_INTERVAL_MS while the tab is visible. */
function usePolledDeliveries<Data, Variables extends AnyVariables>(
  query: TypedDocumentNode<Data, Variables>,
  variables: Variables,
  deliveriesOf: (data: Data) => readonly DeliveryRow[],
) {
  const context = useMemo(() => ({ additionalTypenames: ['Delivery'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery<Data, Variables>({ query, variables, context });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  usePolling(refresh, POLL_INTERVAL_MS);
  return { data, deliveries: data ? deliveriesOf(data) : undefined, error, fetching, refresh };
}

function WebhookLog({ webhookId }: { webhookId: string }) {
  const variables = { webhookId, first: LOG_SIZE };
  const log = usePolledDeliveries(WebhookDeliveriesDocument, variables, (data) => data.deliveries);
  return (
    <DeliveryLog
      log={log}
      subject="delivery log"
      caption="Deliveries to this webhook, newest first"
      empty="Nothing sent yet: events appear here when a submission arrives or you send a test."
    />
  );
}

/** One fact of a webhook's health: its name, then its value. */
function Fact({ name, children, ...valueProps }: { name: string; children: ReactNode } & TextProps) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {name}
      </Text>
      <Text component="dd" m={0} {...valueProps}>
        {children}
      </Text>
    </div>
  );
}

function Health({ webhook }: { webhook: WebhookRow }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xs" component="dl" m={0}>
      <Fact name="Status">
        <Badge color={webhook.enabled ? 'green' : 'gray'} variant="dot">
          {webhook.enabled ? 'Enabled' : 'Disabled'}
        </Badge>
      </Fact>
      <Fact name="Last success" size="sm">
        {formatDateTime(webhook.lastSuccessAt, 'Never')}
      </Fact>
      <Fact name="Failing since" size="sm" c={webhook.failingSince ? 'red.9' : undefined}>
        {formatDateTime(webhook.failingSince, 'Not failing')}
      </Fact>
      <Fact name="Disabled at" size="sm">
        {webhook.enabled
          ? 'No'
          : `${formatDateTime(webhook.disabledAt, 'Yes')}${webhook.disabledReason ? `: ${webhook.disabledReason}` : ''}`}
      </Fact>
    </SimpleGrid>
  );
}

/** The card's actions that ask first. */
const CONFIRMABLE = ['rotate', 'delete'] as const;
type Confirmable = (typeof CONFIRMABLE)[number];

function WebhookCard({
  webhook,
  onSecret,
  onChanged,
}: {
  webhook: WebhookRow;
  onSecret: (url: string, secret: string) => void;
  onChanged: () => void;
}) {
  const titleId = useId();
  const [update, updateWebhook] = useMutation(SetWebhookEnabledDocument);
  const [test, sendTest] = useMutation(SendTestWebhookDocument);
  const [rotation, rotateSecret] = useMutation(RotateWebhookSecretDocument);
  const [deletion, deleteWebhook] = useMutation(DeleteWebhookDocument);
  const [confirming, setConfirming] = useState<Confirmable | null>(null);
  // A webhook's URL and description are stored as the administrator typed them (not HTML-safe text
  // from the gateway): shown as they are.
  const url = webhook.url;

  const toggle = async () => {
    const enabled = !webhook.enabled;
    const result = await updateWebhook({ id: webhook.id, input: { enabled } });
    const changed = enabled
      ? notifyOutcome(result, 'The webhook was not enabled', 'Webhook enabled')
      : notifyOutcome(result, 'The webhook was not disabled', 'Webhook disabled: no events are sent to it');
    if (changed) {
      onChanged();
    }
  };

  const sendTestEvent = async () => {
    const result = await sendTest({ id: webhook.id }, { additionalTypenames: ['Delivery'] });
    notifyOutcome(
      result,
      'The test event was not queued',
      'Test event queued; it appears in the delivery log in a moment',
    );
  };

  const confirmRotate = async () => {
    const result = await rotateSecret({ id: webhook.id });
    setConfirming(null);
    const rotated = notifyOutcome(
      result,
      'The secret was not rotated',
      'New signing secret issued; the old one no longer signs',
    );
    if (rotated) {
      onSecret(url, rotated.rotateWebhookSecret.secret);
    }
  };

  const confirmDelete = async () => {
    const result = await deleteWebhook({ id: webhook.id }, { additionalTypenames: ['Webhook'] });
    setConfirming(null);
    if (notifyOutcome(result, 'The webhook was not deleted', 'Webhook deleted')) {
      onChanged();
    }
  };

  // What each action that asks first says, and what confirming it does.
  const confirmations: Record<Confirmable, Omit<ConfirmDialogProps, 'opened' | 'onClose'>> = {
    rotate: {
      title: 'Rotate the signing secret?',
      confirmLabel: 'Rotate secret',
      pending: rotation.fetching,
      onConfirm: confirmRotate,
      children:
        'The current secret stops signing at once: the receiver refuses new events until it has the new secret, which is shown next, once.',
    },
    delete: {
      title: 'Delete this webhook?',
      confirmLabel: 'Delete webhook',
      pending: deletion.fetching,
      onConfirm: confirmDelete,
      children: (
        <>
          No more events are sent to <Code style={{ wordBreak: 'break-all' }}>{url}</Code>; its pending deliveries and
          its delivery log are deleted too.
        </>
      ),
    },
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {url}
          </Title>
          {webhook.description ? (
            <Text size="sm" c="dimmed">
              {webhook.description}
            </Text>
          ) : null}
        </div>
        <Health webhook={webhook} />
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={sendTestEvent} loading={test.fetching} disabled={!webhook.enabled}>
            Send test
          </Button>
          <Button size="xs" variant="default" onClick={toggle} loading={update.fetching}>
            {webhook.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button size="xs" variant="default" onClick={() => setConfirming('rotate')}>
            Rotate secret
          </Button>
          <DeleteButton onClick={() => setConfirming('delete')} />
        </Group>
        <div>
          <Title order={3} size="h5" mb="xs">
            Delivery log
          </Title>
          <WebhookLog webhookId={webhook.id} />
        </div>
      </Stack>
      {CONFIRMABLE.map((action) => (
        <ConfirmDialog
          key={action}
          opened={confirming === action}
          onClose={() => setConfirming(null)}
          {...confirmations[action]}
        />
      ))}
    </Paper>
  );
}

function EmailLog({ siteId, formId }: { siteId: string; formId: string }) {
  const variables = { formId, first: LOG_SIZE };
  const log = usePolledDeliveries(EmailDeliveriesDocument, variables, (data) => data.emailDeliveries);
  const recipients = log.data?.form?.notifyEmails ?? [];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="email-log-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="email-log-title">
          Notification e-mails
        </Title>
        <Text size="sm">
          {recipients.length === 0
            ? 'Nobody is e-mailed about new submissions.'
            : `Each new submission is e-mailed to ${recipients.join(', ')}.`}{' '}
          <Anchor underline="always" component={Link} to={paths.formSettings(siteId, formId)}>
            Change the addresses in the form&apos;s settings
          </Anchor>
        </Text>
        <DeliveryLog
          log={log}
          subject="e-mail log"
          caption="Notification e-mails of this form, newest first"
          empty="No notification e-mail sent yet."
        />
      </Stack>
    </Paper>
  );
}

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
      <PageHeader title="Webhooks" actions={<NewButton onClick={() => setCreating(true)}>New webhook</NewButton>} />
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          Each new submission is POSTed to every enabled webhook as a signed <Code>submission.created</Code> event,
          retried for days when the receiver fails.
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
          setSecret({ url, secret: value });
          reload();
        }}
      />
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
    </>
  );
}
