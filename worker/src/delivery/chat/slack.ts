// Slack incoming webhooks: `text` (the notification and fallback) and Block Kit `blocks`. Slack's
// mrkdwn gives `&`, `<` and `>` their meaning (`<!channel>` pings everyone, `<url|text>` links), so
// every submitted or named text is escaped the way Slack documents; the rest of mrkdwn (`*bold*`)
// cannot reach beyond its own text.
import { contextLine, filesLine, moreFieldsLine, type ChatNotice } from './chat-notice.js';

// Block Kit limits: a header's plain text, a section's text and each of its fields.
const HEADER_MAX = 150;

export function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

// verbatim: Slack leaves the text as written (no automatic links to channel names, no parsed
// mentions); the one link, to the console, is explicit `<url|label>` markup.
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });

export function slackMessage(notice: ChatNotice): Record<string, unknown> {
  const header = [...notice.headline];
  const blocks: Record<string, unknown>[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: header.length <= HEADER_MAX ? notice.headline : `${header.slice(0, HEADER_MAX - 1).join('')}…`,
      },
    },
  ];
  const context = contextLine(notice);
  if (context) {
    blocks.push({ type: 'context', elements: [mrkdwn(escapeSlack(context))] });
  }
  if (notice.fields.length > 0) {
    blocks.push({
      type: 'section',
      fields: notice.fields.map((field) =>
        mrkdwn(`*${escapeSlack(field.name)}*\n${escapeSlack(field.value) || '_(empty)_'}`),
      ),
    });
  }
  const more = moreFieldsLine(notice);
  const files = filesLine(notice);
  const extra = [more ? escapeSlack(more) : '', files ? `*Files:* ${escapeSlack(files)}` : ''].filter(Boolean);
  if (extra.length > 0) {
    blocks.push({ type: 'section', text: mrkdwn(extra.join('\n')) });
  }
  blocks.push({
    type: 'section',
    text: mrkdwn(`<${escapeSlack(notice.link.url)}|${escapeSlack(notice.link.label)}>`),
  });
  return { text: escapeSlack(notice.headline), blocks };
}
