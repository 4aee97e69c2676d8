// Each chat platform's message, held against that platform's documented schema (shared/src/test/
// chat-schemas.ts, checked with ajv): a real-looking submission, a hostile one (markup, mentions,
// long values, more fields than shown) and a test message. And what a message never holds: a
// file's contents or download link, the fields after the first ones, a live mention.
import type { StoredFile, Submission } from '@intake/shared/entities';
import { toJsonSchema } from '@intake/shared/form-shape';
import { chatMessageProblems, type ChatPlatform } from '@intake/shared/test';
import { CHAT_FIELDS_MAX, CHAT_VALUE_MAX } from './chat-notice.js';
import { chatMessage, submissionNotice, testNotice, type ChatNotice } from './index.js';

const PLATFORMS: ChatPlatform[] = ['slack', 'mattermost', 'teams', 'discord', 'google_chat'];
const CONSOLE_URL = 'https://admin.example.test/sites/s1/forms/f1/submissions/0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

const submission = (data: Record<string, unknown>): Submission =>
  ({
    id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
    createdAt: new Date('2026-11-30T10:15:00.000Z'),
    data,
    sanitizedFields: [],
  }) as unknown as Submission;

const file = (name: string, field: string): StoredFile =>
  ({
    id: 'file-1',
    name,
    field,
    mimeType: 'application/pdf',
    size: 1234,
    sha256: 'ab'.repeat(32),
    storageKey: 'storage-key-never-sent',
  }) as unknown as StoredFile;

function ordinary(): ChatNotice {
  return submissionNotice({
    // As stored: HTML-safe text.
    submission: submission({ name: 'Ada Lovelace', email: 'ada@example.com', message: 'Bugs &amp; moths' }),
    formName: 'Contact',
    siteName: 'Shop',
    files: [file('cv.pdf', 'cv')],
    fieldsSchema: null,
    consoleUrl: CONSOLE_URL,
  });
}

const HOSTILE_VALUES = {
  _subject: 'hidden instruction',
  a: '<!channel> @everyone @here @all <users/all> <@123456> **bold** [link](https://evil.example)',
  b: '&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; {{DATE(2017-02-14T06:08:39Z, SHORT)}}',
  c: '😀'.repeat(600),
  d: 'line one\nline two\r\n# heading\n> quote',
  e: ['x', 'y', 'z'],
  f: { nested: 'value' },
  g: 'the sixth field',
  h: 'the seventh field',
};

function hostile(): ChatNotice {
  return submissionNotice({
    submission: submission(HOSTILE_VALUES),
    formName: `${'F*_`<>&@'.repeat(30)}`,
    siteName: '<!here> Site & Co',
    files: Array.from({ length: 14 }, (_, index) => file(`<b>file</b> ${index}.pdf`, 'upload')),
    fieldsSchema: null,
    consoleUrl: CONSOLE_URL,
  });
}

describe('the notice a chat message is made from', () => {
  it('holds the first fields as short plain text, file names only, and the console link', () => {
    const notice = hostile();
    expect(notice.fields.map((field) => field.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(notice.fields).toHaveLength(CHAT_FIELDS_MAX);
    expect(notice.moreFields).toBe(3);
    // Decoded once from its stored form; multi-line values on one line; long ones cut.
    expect(notice.fields[1]!.value).toContain('<script>alert(1)</script> &amp;');
    expect(notice.fields[3]!.value).toBe('line one line two # heading > quote');
    expect([...notice.fields[2]!.value]).toHaveLength(CHAT_VALUE_MAX);
    expect(notice.fields[2]!.value.endsWith('…')).toBe(true);
    expect(notice.fields[4]!.value).toBe('x, y, z');
    expect(notice.files).toHaveLength(10);
    expect(notice.moreFiles).toBe(4);
    expect(notice.link.url).toBe(CONSOLE_URL);
  });

  it('shows the declared fields first, in the form’s order', () => {
    const notice = submissionNotice({
      submission: submission({ extra: '1', message: 'hi', email: 'ada@example.com' }),
      formName: 'Contact',
      siteName: 'Shop',
      files: [],
      fieldsSchema: toJsonSchema([
        { name: 'email', type: 'email', required: true, maxLength: null, choices: null },
        { name: 'message', type: 'text', required: false, maxLength: null, choices: null },
      ]),
      consoleUrl: CONSOLE_URL,
    });
    expect(notice.fields.map((field) => field.name)).toEqual(['email', 'message', 'extra']);
  });
});

describe.each(PLATFORMS)('the %s message', (platform) => {
  it("matches the platform's documented schema, for an ordinary, a hostile and a test message", () => {
    const notices = [
      ordinary(),
      hostile(),
      testNotice({
        formName: 'Contact',
        siteName: 'Shop',
        consoleUrl: 'https://admin.example.test/sites/s1/forms/f1/webhooks',
      }),
    ];
    for (const notice of notices) {
      expect(chatMessageProblems(platform, chatMessage(platform, notice))).toEqual([]);
    }
  });

  it('names the form, shows the fields and links to the submission in the console', () => {
    const body = JSON.stringify(chatMessage(platform, ordinary()));
    expect(body).toContain('Contact');
    expect(body).toContain('Ada Lovelace');
    expect(body).toContain('cv.pdf');
    expect(body).toContain(CONSOLE_URL);
  });

  it('never holds the fields after the first ones, a file’s contents, link or storage key', () => {
    const body = JSON.stringify(chatMessage(platform, hostile()));
    expect(body).not.toContain('the sixth field');
    expect(body).not.toContain('hidden instruction');
    expect(body).not.toContain('storage-key-never-sent');
    expect(body).not.toContain('ab'.repeat(32));
    expect(body).not.toContain('/files/');
  });
});

describe('each platform’s markup in submitted text is escaped', () => {
  const text = (platform: ChatPlatform) => JSON.stringify(chatMessage(platform, hostile()));

  it('Slack: & < > as Slack documents, so no <!channel> and no link', () => {
    const body = chatMessage('slack', hostile()) as { text: string };
    expect(text('slack')).not.toMatch(/<!channel>|<!here>|<@123456>|<script>/);
    expect(text('slack')).toContain('&lt;!channel&gt;');
    expect(body.text).not.toMatch(/[<>]/);
    // No automatic parsing of mentions or channel names in any mrkdwn text.
    const mrkdwn: Record<string, unknown>[] = [];
    JSON.parse(JSON.stringify(body), (_key, value: unknown) => {
      if (value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'mrkdwn') {
        mrkdwn.push(value as Record<string, unknown>);
      }
      return value;
    });
    expect(mrkdwn.length).toBeGreaterThan(0);
    expect(mrkdwn.every((text) => text.verbatim === true)).toBe(true);
  });

  it('Mattermost: Markdown escaped and no @-mention left', () => {
    const body = text('mattermost');
    expect(body).not.toMatch(/@(channel|everyone|here|all)/);
    // An address stays as typed.
    expect(JSON.stringify(chatMessage('mattermost', ordinary()))).toContain('ada@example.com');
    expect(body).toContain('\\\\*\\\\*bold\\\\*\\\\*');
    expect(body).not.toContain('[link](https://evil.example)');
  });

  it('Discord: nothing is parsed for mentions, and Markdown is escaped', () => {
    const body = chatMessage('discord', hostile()) as { allowed_mentions: unknown };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(text('discord')).toContain('\\\\*\\\\*bold\\\\*\\\\*');
    expect(text('discord')).not.toContain('[link](https://evil.example)');
  });

  it('Teams: Markdown escaped in text blocks and facts', () => {
    expect(text('teams')).toContain('\\\\*\\\\*bold\\\\*\\\\*');
    expect(text('teams')).not.toContain('[link](https://evil.example)');
  });

  it('Google Chat: HTML escaped in card text, and no text field to mention anyone in', () => {
    const body = chatMessage('google_chat', hostile()) as Record<string, unknown>;
    expect(body.text).toBeUndefined();
    expect(text('google_chat')).toContain('&lt;script&gt;');
    expect(text('google_chat')).not.toContain('<script>');
    expect(text('google_chat')).toContain('&lt;b&gt;file&lt;/b&gt;');
  });
});

describe('the schemas refuse what the platforms refuse (so the checks above can fail)', () => {
  it.each([
    ['slack', { text: '' }],
    ['slack', { text: 'x', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } }] }],
    ['mattermost', { attachments: [] }],
    ['teams', { type: 'message', attachments: [{ contentType: 'application/json', content: {} }] }],
    ['teams', { attachments: [] }],
    ['discord', { content: 'x'.repeat(2001) }],
    ['discord', { embeds: [{ fields: [{ name: 'a', value: '' }] }] }],
    ['discord', { embeds: Array.from({ length: 6 }, () => ({ description: 'x'.repeat(1001) })) }],
    ['google_chat', { text: 'x'.repeat(4097) }],
    ['google_chat', { cardsV2: [{ cardId: 'c', card: { sections: [{ widgets: [] }] } }] }],
  ] as [ChatPlatform, unknown][])('%s refuses case %#', (platform, body) => {
    expect(chatMessageProblems(platform, body)).not.toEqual([]);
  });
});
