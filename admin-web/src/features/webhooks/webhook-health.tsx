// A webhook's health at a glance: on or off, its last success, since when it fails, why it was turned off.
import { Badge, SimpleGrid, Text, type TextProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../lib/format';

/** What a webhook's health is read from. */
export interface WebhookHealthFields {
  enabled: boolean;
  failingSince?: string | null;
  disabledAt?: string | null;
  disabledReason?: string | null;
  lastSuccessAt?: string | null;
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

export function Health({ webhook }: { webhook: WebhookHealthFields }) {
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
