// Microsoft Teams through a Workflows webhook ("Post to a channel when a webhook request is
// received"): a message with one Adaptive Card attachment. TextBlock and FactSet text is Markdown
// in Teams, so Markdown characters in submitted or named text are escaped with a backslash; a card
// mentions nobody unless it declares `msteams.entities`, which this one never does.
import { contextLine, filesLine, moreFieldsLine, type ChatNotice } from './chat-notice.js';

export const ADAPTIVE_CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';
export const ADAPTIVE_CARD_SCHEMA = 'http://adaptivecards.io/schemas/adaptive-card.json';
// 1.4: what the Workflows app and Teams on every client render.
const CARD_VERSION = '1.4';

const MARKDOWN = /[\\`*_{}[\]()#|<>~]/g;

export function escapeTeams(text: string): string {
  return text.replace(MARKDOWN, (char) => `\\${char}`);
}

const textBlock = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'TextBlock',
  text,
  wrap: true,
  ...extra,
});

export function teamsMessage(notice: ChatNotice): Record<string, unknown> {
  const context = contextLine(notice);
  const more = moreFieldsLine(notice);
  const files = filesLine(notice);
  const body: Record<string, unknown>[] = [
    textBlock(escapeTeams(notice.headline), { size: 'Medium', weight: 'Bolder' }),
    ...(context ? [textBlock(escapeTeams(context), { isSubtle: true, spacing: 'None' })] : []),
  ];
  if (notice.fields.length > 0) {
    body.push({
      type: 'FactSet',
      facts: notice.fields.map((field) => ({ title: escapeTeams(field.name), value: escapeTeams(field.value) })),
    });
  }
  if (more) {
    body.push(textBlock(escapeTeams(more), { isSubtle: true }));
  }
  if (files) {
    body.push(textBlock(`**Files:** ${escapeTeams(files)}`));
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: ADAPTIVE_CARD_CONTENT_TYPE,
        contentUrl: null,
        content: {
          $schema: ADAPTIVE_CARD_SCHEMA,
          type: 'AdaptiveCard',
          version: CARD_VERSION,
          body,
          actions: [{ type: 'Action.OpenUrl', title: notice.link.label, url: notice.link.url }],
        },
      },
    ],
  };
}
