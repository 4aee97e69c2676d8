// Google Chat incoming webhooks: a card message (`cardsV2`) with a plain `fallbackText` for
// notifications. Card text takes a subset of HTML, so submitted or named text is HTML-escaped; a
// card cannot mention anyone (`<users/all>` works only in `text`, which this message leaves out).
import { contextLine, filesLine, moreFieldsLine, type ChatNotice } from './chat-notice.js';

export function escapeGoogleChat(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

const paragraph = (text: string) => ({ textParagraph: { text } });

export function googleChatMessage(notice: ChatNotice): Record<string, unknown> {
  const more = moreFieldsLine(notice);
  const files = filesLine(notice);
  const context = contextLine(notice);
  const widgets: Record<string, unknown>[] = [
    ...notice.fields.map((field) => ({
      decoratedText: {
        topLabel: escapeGoogleChat(field.name),
        text: escapeGoogleChat(field.value) || '<i>(empty)</i>',
        wrapText: true,
      },
    })),
    ...(more ? [paragraph(`<i>${escapeGoogleChat(more)}</i>`)] : []),
    ...(files ? [paragraph(`<b>Files:</b> ${escapeGoogleChat(files)}`)] : []),
    {
      buttonList: {
        buttons: [{ text: notice.link.label, onClick: { openLink: { url: notice.link.url } } }],
      },
    },
  ];
  return {
    fallbackText: notice.headline,
    cardsV2: [
      {
        cardId: 'intake-submission',
        card: {
          header: { title: notice.headline, ...(context ? { subtitle: context } : {}) },
          sections: [{ widgets }],
        },
      },
    ],
  };
}
