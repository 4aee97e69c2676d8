// A chat webhook's request body: the notice (chat-notice.ts) in its platform's own format.
import type { WebhookFormat } from '@intake/shared/entities';
import type { ChatNotice } from './chat-notice.js';
import { discordMessage } from './discord.js';
import { googleChatMessage } from './google-chat.js';
import { mattermostMessage } from './mattermost.js';
import { slackMessage } from './slack.js';
import { teamsMessage } from './teams.js';

export type ChatFormat = Exclude<WebhookFormat, 'standard'>;

const BUILDERS: Record<ChatFormat, (notice: ChatNotice) => Record<string, unknown>> = {
  slack: slackMessage,
  mattermost: mattermostMessage,
  teams: teamsMessage,
  discord: discordMessage,
  google_chat: googleChatMessage,
};

export function chatMessage(format: ChatFormat, notice: ChatNotice): Record<string, unknown> {
  return BUILDERS[format](notice);
}

export { submissionNotice, testNotice, type ChatNotice } from './chat-notice.js';
