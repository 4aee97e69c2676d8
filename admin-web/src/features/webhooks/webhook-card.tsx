// One webhook: its URL, format and description, its health, its actions (send a test, enable or disable,
// rotate the signing secret, delete; the last two ask first) and its delivery log.
import { Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { useMutation } from 'urql';
import { ConfirmDialog, type ConfirmDialogProps } from '../../components/confirm-dialog';
import { notifyOutcome } from '../../components/notify';
import { DeleteButton } from '../../components/row-actions';
import {
  DeleteWebhookDocument,
  RotateWebhookSecretDocument,
  SendTestWebhookDocument,
  SetWebhookEnabledDocument,
  type WebhookFormat,
} from '../../gql/graphql';
import { FORMAT_LABELS } from './webhook-format';
import { Health, type WebhookHealthFields } from './webhook-health';
import { WebhookLog } from './webhook-log';

export interface WebhookRow extends WebhookHealthFields {
  id: string;
  url: string;
  format: WebhookFormat;
  description?: string | null;
}

/** The card's actions that ask first. */
const CONFIRMABLE = ['rotate', 'delete'] as const;
type Confirmable = (typeof CONFIRMABLE)[number];

export function WebhookCard({
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
          <Text size="sm">Format: {FORMAT_LABELS[webhook.format]}</Text>
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
