// Each chat platform's incoming-webhook message as its own documentation describes it, written as a
// JSON Schema (required fields, allowed values, length and count limits), for tests to hold our
// messages against with ajv, an implementation independent of ours. Sources:
// - Slack: "Sending messages using incoming webhooks" and the Block Kit reference (header plain text
//   150, section text 3000, section fields 10 × 2000, context elements 10, blocks 50, text 40000).
// - Mattermost: "Incoming webhooks" (Slack-compatible `text`; a post holds at most 16383 characters).
// - Microsoft Teams: "Create incoming webhooks with Workflows" (a `message` with Adaptive Card
//   attachments) and the Adaptive Cards schema (TextBlock, FactSet, Action.OpenUrl; 28 KB a message).
// - Discord: "Execute Webhook" (content 2000; 10 embeds; title 256, description 4096, 25 fields of
//   256/1024, footer 2048, 6000 characters of embed text in all; `allowed_mentions.parse`).
// - Google Chat: the `spaces.messages` Message resource (text 4096, `fallbackText`, `cardsV2` cards of
//   at most 100 widgets: textParagraph, decoratedText, buttonList; 32,000 bytes a message).
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const string = (max: number, min = 1) => ({ type: 'string', minLength: min, maxLength: max });

const slackText = (max: number) => ({
  type: 'object',
  properties: {
    type: { enum: ['plain_text', 'mrkdwn'] },
    text: string(max),
    emoji: { type: 'boolean' },
    verbatim: { type: 'boolean' },
  },
  required: ['type', 'text'],
  additionalProperties: false,
});

const SLACK = {
  type: 'object',
  properties: {
    text: string(40_000),
    blocks: {
      type: 'array',
      maxItems: 50,
      items: {
        oneOf: [
          {
            type: 'object',
            properties: {
              type: { const: 'header' },
              text: {
                type: 'object',
                properties: { type: { const: 'plain_text' }, text: string(150), emoji: { type: 'boolean' } },
                required: ['type', 'text'],
                additionalProperties: false,
              },
              block_id: string(255),
            },
            required: ['type', 'text'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: {
              type: { const: 'section' },
              text: slackText(3000),
              fields: { type: 'array', minItems: 1, maxItems: 10, items: slackText(2000) },
              block_id: string(255),
            },
            required: ['type'],
            anyOf: [{ required: ['text'] }, { required: ['fields'] }],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: {
              type: { const: 'context' },
              elements: { type: 'array', minItems: 1, maxItems: 10, items: slackText(3000) },
              block_id: string(255),
            },
            required: ['type', 'elements'],
            additionalProperties: false,
          },
        ],
      },
    },
  },
  required: ['text'],
  additionalProperties: false,
};

const MATTERMOST = {
  type: 'object',
  properties: {
    text: string(16_383),
    channel: { type: 'string' },
    username: { type: 'string' },
    icon_url: { type: 'string', format: 'uri' },
  },
  required: ['text'],
  additionalProperties: false,
};

const SPACING = { enum: ['None', 'Small', 'Default', 'Medium', 'Large', 'ExtraLarge', 'Padding'] };

const TEAMS = {
  type: 'object',
  properties: {
    type: { const: 'message' },
    attachments: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          contentType: { const: 'application/vnd.microsoft.card.adaptive' },
          contentUrl: { type: ['string', 'null'] },
          content: {
            type: 'object',
            properties: {
              $schema: { const: 'http://adaptivecards.io/schemas/adaptive-card.json' },
              type: { const: 'AdaptiveCard' },
              version: { enum: ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5'] },
              body: {
                type: 'array',
                items: {
                  oneOf: [
                    {
                      type: 'object',
                      properties: {
                        type: { const: 'TextBlock' },
                        text: { type: 'string' },
                        wrap: { type: 'boolean' },
                        size: { enum: ['Default', 'Small', 'Medium', 'Large', 'ExtraLarge'] },
                        weight: { enum: ['Default', 'Lighter', 'Bolder'] },
                        color: { enum: ['Default', 'Dark', 'Light', 'Accent', 'Good', 'Warning', 'Attention'] },
                        isSubtle: { type: 'boolean' },
                        spacing: SPACING,
                      },
                      required: ['type', 'text'],
                      additionalProperties: false,
                    },
                    {
                      type: 'object',
                      properties: {
                        type: { const: 'FactSet' },
                        facts: {
                          type: 'array',
                          items: {
                            type: 'object',
                            properties: { title: { type: 'string' }, value: { type: 'string' } },
                            required: ['title', 'value'],
                            additionalProperties: false,
                          },
                        },
                        spacing: SPACING,
                      },
                      required: ['type', 'facts'],
                      additionalProperties: false,
                    },
                  ],
                },
              },
              actions: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    type: { const: 'Action.OpenUrl' },
                    title: { type: 'string' },
                    url: { type: 'string', format: 'uri' },
                  },
                  required: ['type', 'url'],
                  additionalProperties: false,
                },
              },
            },
            required: ['type', 'version'],
            additionalProperties: false,
          },
        },
        required: ['contentType', 'content'],
        additionalProperties: false,
      },
    },
  },
  required: ['type', 'attachments'],
  additionalProperties: false,
};

const DISCORD = {
  type: 'object',
  properties: {
    content: string(2000, 0),
    username: string(80),
    avatar_url: { type: 'string', format: 'uri' },
    tts: { type: 'boolean' },
    embeds: {
      type: 'array',
      maxItems: 10,
      items: {
        type: 'object',
        properties: {
          title: string(256),
          description: string(4096),
          url: { type: 'string', format: 'uri' },
          timestamp: { type: 'string', format: 'date-time' },
          color: { type: 'integer', minimum: 0, maximum: 0xffffff },
          footer: {
            type: 'object',
            properties: { text: string(2048), icon_url: { type: 'string', format: 'uri' } },
            required: ['text'],
            additionalProperties: false,
          },
          fields: {
            type: 'array',
            maxItems: 25,
            items: {
              type: 'object',
              properties: { name: string(256), value: string(1024), inline: { type: 'boolean' } },
              required: ['name', 'value'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    },
    allowed_mentions: {
      type: 'object',
      properties: {
        parse: { type: 'array', items: { enum: ['roles', 'users', 'everyone'] } },
        roles: { type: 'array', maxItems: 100, items: { type: 'string' } },
        users: { type: 'array', maxItems: 100, items: { type: 'string' } },
        replied_user: { type: 'boolean' },
      },
      additionalProperties: false,
    },
  },
  anyOf: [{ required: ['content'] }, { required: ['embeds'] }],
  additionalProperties: false,
};

const onClickOpenLink = {
  type: 'object',
  properties: {
    openLink: {
      type: 'object',
      properties: { url: { type: 'string', format: 'uri' } },
      required: ['url'],
      additionalProperties: false,
    },
  },
  required: ['openLink'],
  additionalProperties: false,
};

const GOOGLE_CHAT = {
  type: 'object',
  properties: {
    text: string(4096),
    fallbackText: { type: 'string' },
    cardsV2: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          cardId: { type: 'string' },
          card: {
            type: 'object',
            properties: {
              header: {
                type: 'object',
                properties: { title: { type: 'string', minLength: 1 }, subtitle: { type: 'string' } },
                required: ['title'],
                additionalProperties: false,
              },
              sections: {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  properties: {
                    header: { type: 'string' },
                    widgets: {
                      type: 'array',
                      minItems: 1,
                      maxItems: 100,
                      items: {
                        oneOf: [
                          {
                            type: 'object',
                            properties: {
                              textParagraph: {
                                type: 'object',
                                properties: { text: { type: 'string' } },
                                required: ['text'],
                                additionalProperties: false,
                              },
                            },
                            required: ['textParagraph'],
                            additionalProperties: false,
                          },
                          {
                            type: 'object',
                            properties: {
                              decoratedText: {
                                type: 'object',
                                properties: {
                                  text: { type: 'string' },
                                  topLabel: { type: 'string' },
                                  bottomLabel: { type: 'string' },
                                  wrapText: { type: 'boolean' },
                                },
                                required: ['text'],
                                additionalProperties: false,
                              },
                            },
                            required: ['decoratedText'],
                            additionalProperties: false,
                          },
                          {
                            type: 'object',
                            properties: {
                              buttonList: {
                                type: 'object',
                                properties: {
                                  buttons: {
                                    type: 'array',
                                    minItems: 1,
                                    items: {
                                      type: 'object',
                                      properties: { text: { type: 'string' }, onClick: onClickOpenLink },
                                      required: ['text', 'onClick'],
                                      additionalProperties: false,
                                    },
                                  },
                                },
                                required: ['buttons'],
                                additionalProperties: false,
                              },
                            },
                            required: ['buttonList'],
                            additionalProperties: false,
                          },
                        ],
                      },
                    },
                  },
                  required: ['widgets'],
                  additionalProperties: false,
                },
              },
            },
            required: ['sections'],
            additionalProperties: false,
          },
        },
        required: ['cardId', 'card'],
        additionalProperties: false,
      },
    },
  },
  anyOf: [{ required: ['text'] }, { required: ['cardsV2'] }],
  additionalProperties: false,
};

export type ChatPlatform = 'slack' | 'mattermost' | 'teams' | 'discord' | 'google_chat';

export const CHAT_MESSAGE_SCHEMAS: Record<ChatPlatform, object> = {
  slack: SLACK,
  mattermost: MATTERMOST,
  teams: TEAMS,
  discord: DISCORD,
  google_chat: GOOGLE_CHAT,
};

/** Bytes a whole request body may hold, where the platform documents it. */
const BODY_BYTES_MAX: Partial<Record<ChatPlatform, number>> = { teams: 28 * 1024, google_chat: 32_000 };

/** Characters of embed text a Discord message may hold in all. */
const DISCORD_EMBED_TEXT_MAX = 6000;

let validators: Map<ChatPlatform, ValidateFunction> | undefined;

function validatorOf(platform: ChatPlatform): ValidateFunction {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    addFormats.default(ajv);
    validators = new Map(
      Object.entries(CHAT_MESSAGE_SCHEMAS).map(([name, schema]) => [name as ChatPlatform, ajv.compile(schema)]),
    );
  }
  return validators.get(platform)!;
}

function discordEmbedText(body: any): number {
  let total = 0;
  for (const embed of body.embeds ?? []) {
    const texts = [
      embed.title,
      embed.description,
      embed.footer?.text,
      ...(embed.fields ?? []).flatMap((f: any) => [f.name, f.value]),
    ];
    total += texts.filter((text) => typeof text === 'string').reduce((sum, text: string) => sum + [...text].length, 0);
  }
  return total;
}

/** What is wrong with `body` as a message of `platform` (empty: nothing). */
export function chatMessageProblems(platform: ChatPlatform, body: unknown): string[] {
  const validate = validatorOf(platform);
  const problems = validate(body)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
  const bytes = Buffer.byteLength(JSON.stringify(body), 'utf8');
  const max = BODY_BYTES_MAX[platform];
  if (max !== undefined && bytes > max) {
    problems.push(`the body is ${bytes} bytes, over ${max}`);
  }
  if (platform === 'discord' && discordEmbedText(body) > DISCORD_EMBED_TEXT_MAX) {
    problems.push(`the embeds hold over ${DISCORD_EMBED_TEXT_MAX} characters`);
  }
  return problems;
}
