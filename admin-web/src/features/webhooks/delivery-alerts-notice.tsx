// The notice above every page of a form whose webhooks or notification e-mails keep failing
// (`Form.deliveryAlerts`; the rule is in docs/webhooks.md#failing-deliveries): lost notifications
// are silent otherwise. Those who manage the site get a link to the Webhooks page, where they are fixed.
import { Alert, Anchor, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { DeliveryAlertFieldsFragment } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';

function what(alert: DeliveryAlertFieldsFragment): string {
  const where = alert.channel === 'webhook' ? `The webhook to ${alert.target}` : 'The notification e-mails';
  const why = alert.lastError ? ` (${alert.lastError})` : '';
  const when = alert.lastFailureAt ? `, last on ${formatDateTime(alert.lastFailureAt)}` : '';
  switch (alert.reason) {
    case 'disabled':
      return `${where} was turned off after failing for too long${why}.`;
    case 'failed':
      return `${where}: the newest delivery failed with no retry left${why}${when}.`;
    default:
      return `${where}: ${alert.consecutiveFailures} attempts in a row failed${why}${when}.`;
  }
}

export function DeliveryAlertsNotice({
  alerts,
  webhooksPath,
}: {
  alerts: readonly DeliveryAlertFieldsFragment[];
  /** The form's Webhooks page, for those who manage the site; null for a reader. */
  webhooksPath: string | null;
}) {
  if (alerts.length === 0) {
    return null;
  }
  return (
    <Alert
      color="yellow"
      role="status"
      title={
        // The theme's yellow title is too pale on the light background: the text's own colour.
        <Text span inherit c="var(--mantine-color-text)">
          Notifications of this form are failing
        </Text>
      }
      icon={<IconAlertTriangle aria-hidden />}
      mb="md"
    >
      <List size="sm" spacing={4}>
        {alerts.map((alert) => (
          <List.Item key={alert.webhookId ?? alert.channel}>{what(alert)}</List.Item>
        ))}
      </List>
      <Text size="sm" mt="xs">
        Each submission&apos;s page shows its deliveries.{' '}
        {webhooksPath ? (
          <Anchor component={Link} to={webhooksPath} underline="always" c="inherit" fw={600}>
            Open the webhooks and their delivery logs
          </Anchor>
        ) : (
          'Someone who manages this site can check the webhooks and e-mail addresses.'
        )}
      </Text>
    </Alert>
  );
}
