// Discord webhooks: a short `content` and one embed (title linking to the console, a field per
// submitted field, the time). `allowed_mentions` with nothing to parse means no value can ping
// anyone whatever it holds; Markdown characters are still escaped so a value reads as it was sent.
import { filesLine, moreFieldsLine, type ChatNotice } from './chat-notice.js';

// Discord's documented limits: content 2000; embed title 256, field name 256, field value 1024,
// footer 2048, description 4096; all embed text together 6000.
const TITLE_MAX = 256;
const FIELD_VALUE_MAX = 1024;

const MARKDOWN = /[\\`*_~|>#\-[\]()<:@]/g;

export function escapeDiscord(text: string): string {
  return text.replace(MARKDOWN, (char) => `\\${char}`);
}

function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

export function discordMessage(notice: ChatNotice): Record<string, unknown> {
  const more = moreFieldsLine(notice);
  const files = filesLine(notice);
  const fields = [
    ...notice.fields.map((field) => ({
      name: cut(escapeDiscord(field.name), TITLE_MAX),
      // An empty value is refused by Discord.
      value: cut(escapeDiscord(field.value), FIELD_VALUE_MAX) || '*(empty)*',
      inline: false,
    })),
    ...(files ? [{ name: 'Files', value: cut(escapeDiscord(files), FIELD_VALUE_MAX), inline: false }] : []),
  ];
  const embed: Record<string, unknown> = {
    title: cut(escapeDiscord(notice.headline), TITLE_MAX),
    url: notice.link.url,
    description: [more ? `*${escapeDiscord(more)}*` : '', `[${escapeDiscord(notice.link.label)}](${notice.link.url})`]
      .filter(Boolean)
      .join('\n'),
    ...(fields.length > 0 ? { fields } : {}),
    ...(notice.siteName ? { footer: { text: notice.siteName } } : {}),
    ...(notice.submittedAt ? { timestamp: notice.submittedAt.toISOString() } : {}),
  };
  return {
    content: cut(escapeDiscord(notice.headline), 2000),
    embeds: [embed],
    allowed_mentions: { parse: [] },
  };
}
