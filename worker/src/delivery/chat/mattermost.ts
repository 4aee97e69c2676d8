// Mattermost incoming webhooks: Slack-compatible, kept to `text`, which Mattermost renders as
// Markdown. Every submitted or named text has its Markdown characters escaped with a backslash, and
// an `@` that could start a mention is followed by a zero-width space so that no value mentions `@channel`, `@all` or anyone.
import { contextLine, filesLine, moreFieldsLine, type ChatNotice } from './chat-notice.js';

const MARKDOWN = /[\\`*_{}[\]()#|<>~]/g;

export function escapeMattermost(text: string): string {
  // Only an `@` that can start a mention (not the one inside ada@example.com) is broken.
  return text.replace(MARKDOWN, (char) => `\\${char}`).replace(/(?<![\p{L}\p{N}_])@/gu, '@\u200B');
}

export function mattermostMessage(notice: ChatNotice): Record<string, unknown> {
  const context = contextLine(notice);
  const more = moreFieldsLine(notice);
  const files = filesLine(notice);
  const lines = [
    `#### ${escapeMattermost(notice.headline)}`,
    ...(context ? [escapeMattermost(context), ''] : []),
    ...notice.fields.map((field) => `**${escapeMattermost(field.name)}:** ${escapeMattermost(field.value)}`),
    ...(more ? [`_${escapeMattermost(more)}_`] : []),
    ...(files ? [`**Files:** ${escapeMattermost(files)}`] : []),
    '',
    // The URL is ours (the admin's public origin and ids), never submitted text.
    `[${escapeMattermost(notice.link.label)}](${notice.link.url})`,
  ];
  return { text: lines.join('\n') };
}
