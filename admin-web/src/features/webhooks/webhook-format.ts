// A webhook's format as the console names it: the signed event for a program of the owner's own, or a
// chat platform's incoming webhook (docs/webhooks.md#chat-notifications).
import type { WebhookFormat } from '../../gql/graphql';

export const FORMAT_LABELS: Record<WebhookFormat, string> = {
  STANDARD: 'Signed event (Standard Webhooks)',
  SLACK: 'Slack',
  MATTERMOST: 'Mattermost',
  TEAMS: 'Microsoft Teams (Workflows)',
  DISCORD: 'Discord',
  GOOGLE_CHAT: 'Google Chat',
};

/** The options of the Format select, the signed event first. */
export const FORMAT_OPTIONS = (Object.keys(FORMAT_LABELS) as WebhookFormat[]).map((value) => ({
  value,
  label: FORMAT_LABELS[value],
}));

export const isWebhookFormat = (value: string | null): value is WebhookFormat =>
  value !== null && Object.hasOwn(FORMAT_LABELS, value);
