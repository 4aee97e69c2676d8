// The setup file (intake.yaml): what `intake plan` and `intake apply` make true. Its JSON Schema in
// docs/intake-config.schema.json is printed from this one (`intake schema`, zod's toJSONSchema), and a
// test keeps the two equal. Objects are strict: an unknown key is a mistake in the file, never ignored.
// The bounds are the ones the admin API's inputs check (@intake/contract, bundled as `#contract`),
// declared as JSON Schema keywords rather than by reusing the API's zod schemas, whose transforms a
// JSON Schema cannot show; bounds the API checks itself are left to it, so its words reach the user
// (docs/decisions/cli.md).
import {
  BROWSER_ORIGINS_MAX,
  BROWSER_TEXT_DEFAULTS,
  BROWSER_TEXT_MAX_LENGTH,
  CHALLENGE_DIFFICULTY_MAX,
  CHALLENGE_DIFFICULTY_MIN,
  THANK_YOU_URL_MAX_LENGTH,
  THANK_YOU_URLS_MAX,
  CHOICE_MAX_LENGTH,
  CHOICES_MAX,
  DESCRIPTION_MAX_LENGTH,
  DUPLICATE_WINDOW_MAX_SECONDS,
  FIELD_MAX_LENGTH_MAX,
  FIELD_NAME_MAX_LENGTH,
  MAX_LINKS_MAX,
  NAME_MAX_LENGTH,
  RETENTION_DAYS_MAX,
  RETENTION_DAYS_MIN,
  SUBMISSION_CAP_MAX,
} from '#contract';
import { z } from 'zod';

export const ENV_REFERENCE = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

const name = z
  .string()
  .min(1)
  .max(NAME_MAX_LENGTH)
  .describe(`1 to ${NAME_MAX_LENGTH} characters; the stable name this object is matched by`);
const stringList = (description: string) => z.array(z.string().min(1)).nullable().describe(description);
const count = (min: number, max: number, description: string) =>
  z.number().int().min(min).max(max).nullable().describe(description);

const scheduleTime = (description: string) =>
  z.iso
    .datetime({
      offset: true,
      error: 'must be an ISO 8601 date and time with a time zone, such as 2026-12-01T09:00:00Z',
    })
    .nullable()
    .describe(description);

const captcha = z
  .strictObject({
    provider: z.enum(['HCAPTCHA', 'RECAPTCHA_V2', 'RECAPTCHA_V3', 'TURNSTILE']),
    secret: z
      .string()
      .regex(ENV_REFERENCE, 'must be ${env:NAME}: secrets come from the environment, never from the file')
      .describe("The provider's secret key, as ${env:NAME}: read from the environment, never printed"),
    responseField: z
      .string()
      .min(1)
      .max(FIELD_NAME_MAX_LENGTH)
      .optional()
      .describe("The field of the visitor's answer"),
    minScore: z.number().min(0).max(1).optional().describe('reCAPTCHA v3: the lowest accepted score'),
    unavailableAsSpam: z.boolean().optional().describe('Provider unreachable: store as spam instead of 503'),
  })
  .describe('A CAPTCHA checked on every submission; null turns it off');

const webhook = z
  .strictObject({
    url: z.string().url().describe('http:// or https://; the webhook is matched by this URL within its form'),
    description: z.string().max(DESCRIPTION_MAX_LENGTH).nullable().optional(),
    enabled: z.boolean().optional(),
    format: z
      .enum(['STANDARD', 'SLACK', 'MATTERMOST', 'TEAMS', 'DISCORD', 'GOOGLE_CHAT'])
      .optional()
      .describe(
        "STANDARD: the signed event; the others: that chat platform's message; left out: STANDARD when created",
      ),
  })
  .describe("A signed HTTP endpoint for the form's events, or a chat platform's incoming webhook");

// A declared field as updateForm takes it (docs/form-fields.md). The rules between properties
// (choices only on CHOICE, no maxLength on NUMBER) are the API's, so its words reach the user.
const declaredField = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .max(FIELD_NAME_MAX_LENGTH)
      .describe('The key in the body; the field is matched by this name'),
    type: z.enum(['TEXT', 'EMAIL', 'NUMBER', 'BOOLEAN', 'CHOICE', 'LIST']),
    required: z.boolean().optional().describe('The field must be sent; left out: false'),
    maxLength: z
      .number()
      .int()
      .min(1)
      .max(FIELD_MAX_LENGTH_MAX)
      .nullable()
      .optional()
      .describe('TEXT, EMAIL and LIST (per item): at most this many characters'),
    choices: z
      .array(z.string().min(1).max(CHOICE_MAX_LENGTH))
      .min(1)
      .max(CHOICES_MAX)
      .nullable()
      .optional()
      .describe('CHOICE only: the accepted values'),
  })
  .describe('A field the form declares');

// Browser posting (docs/static-sites.md): the API checks the origins and addresses itself.
const browserTexts = z
  .strictObject(
    Object.fromEntries(
      Object.keys(BROWSER_TEXT_DEFAULTS).map((key) => [
        key,
        z.string().min(1).max(BROWSER_TEXT_MAX_LENGTH).nullable().optional(),
      ]),
    ) as Record<keyof typeof BROWSER_TEXT_DEFAULTS, z.ZodOptional<z.ZodNullable<z.ZodString>>>,
  )
  .describe("The visitor's pages' texts; a text left out or null takes the default");

const browser = z
  .strictObject({
    posting: z.boolean().describe('Take posts without credentials from the pages of `origins`'),
    origins: z
      .array(z.string().min(1))
      .max(BROWSER_ORIGINS_MAX)
      .optional()
      .describe('Exact origins such as https://www.example.org (http only on localhost or 127.0.0.1)'),
    thankYouUrls: z
      .array(z.string().min(1).max(THANK_YOU_URL_MAX_LENGTH))
      .max(THANK_YOU_URLS_MAX)
      .optional()
      .describe(
        "Exact addresses a browser goes to after a post (the first unless `_next` names another); []: Intake's page",
      ),
    challenge: z
      .enum(['required', 'record_only', 'off'])
      .optional()
      .describe('The proof-of-work challenge; off needs confirmChallengeOff: true'),
    confirmChallengeOff: z.literal(true).optional().describe('Turns the challenge off knowingly: any script may post'),
    challengeDifficulty: z
      .number()
      .int()
      .min(CHALLENGE_DIFFICULTY_MIN)
      .max(CHALLENGE_DIFFICULTY_MAX)
      .nullable()
      .optional()
      .describe('Average attempts of the challenge; null: the default'),
    texts: browserTexts.nullable().optional(),
    maxBodySize: z
      .number()
      .int()
      .min(1)
      .nullable()
      .optional()
      .describe('Bytes per browser post; null: BROWSER_MAX_BODY_SIZE'),
    maxFileSize: z.number().int().min(1).nullable().optional().describe('Bytes per file; null: BROWSER_MAX_FILE_SIZE'),
    maxFiles: z.number().int().min(0).nullable().optional().describe('Files per browser post; null: BROWSER_MAX_FILES'),
    reservedFields: z
      .boolean()
      .optional()
      .describe('Understand _next, _subject, _replyto, _gotcha and their equivalents'),
  })
  .refine((value) => value.challenge !== 'off' || value.confirmChallengeOff === true, {
    message: 'challenge: off lets any script post: add confirmChallengeOff: true',
    path: ['confirmChallengeOff'],
  })
  .describe("Posts straight from visitors' browsers (docs/static-sites.md); left out: untouched");

const form = z
  .strictObject({
    name: name,
    enabled: z.boolean().optional().describe('false: the gateway refuses submissions (403 form_forbidden)'),
    allowedMimeTypes: stringList('A subset of the 12 default types; null: the defaults').optional(),
    maxFileSize: z.number().int().min(1).nullable().optional().describe('Bytes per file; null: MAX_FILE_SIZE'),
    notifyEmails: z.array(z.email()).nullable().optional().describe('Addresses e-mailed about every submission'),
    retentionDays: count(
      RETENTION_DAYS_MIN,
      RETENTION_DAYS_MAX,
      'Days a submission is kept; null: for ever',
    ).optional(),
    honeypotFields: stringList('Fields that make a submission spam when filled; null or []: off').optional(),
    maxLinks: count(0, MAX_LINKS_MAX, 'More links than this is spam; null: off').optional(),
    blockedWords: stringList('Words or phrases that make a submission spam; null or []: off').optional(),
    duplicateWindowSeconds: count(
      1,
      DUPLICATE_WINDOW_MAX_SECONDS,
      'Seconds in which the same content is stored once; null: off',
    ).optional(),
    captcha: captcha.nullable().optional(),
    maxSubmissions: count(
      1,
      SUBMISSION_CAP_MAX,
      'At most this many submissions (spam not counted); null: no cap',
    ).optional(),
    maxSubmissionsPerAddress: count(
      1,
      SUBMISSION_CAP_MAX,
      'At most this many per address of capAddressField; null: none',
    ).optional(),
    capAddressField: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe('The declared email field whose address maxSubmissionsPerAddress counts'),
    opensAt: scheduleTime('Submissions are refused (403 form_closed) before this time; null: open').optional(),
    closesAt: scheduleTime('Submissions are refused from this time on, after opensAt; null: never').optional(),
    fields: z
      .array(declaredField)
      .nullable()
      .optional()
      .describe('The fields the form takes, in order; null or []: none (every key accepted); left out: untouched'),
    unknownFields: z
      .enum(['refuse', 'drop'])
      .optional()
      .describe('With declared fields: refuse a submission holding another field (400 fields_invalid), or drop it'),
    browser: browser.optional(),
    webhooks: z
      .array(webhook)
      .optional()
      .describe("Declared: the form's webhooks are managed (--prune deletes the others); left out: untouched"),
  })
  .describe('A form, matched by name within its site; a setting left out is left as it is');

const grant = z.strictObject({
  email: z.email().describe('An existing team member with the role member'),
  level: z.enum(['read', 'manage']),
});

const site = z
  .strictObject({
    name: name,
    domain: z.string().min(1).nullable().optional().describe('A host name such as example.com; null: none'),
    forms: z
      .array(form)
      .optional()
      .describe("Declared: the site's forms are managed (--prune deletes the others); left out: untouched"),
    members: z
      .array(grant)
      .optional()
      .describe("Declared: members' grants on this site are managed (--prune removes the others)"),
  })
  .describe('A site, matched by name');

/** A URL as the API compares it; the text itself when it is no URL (the url check reports that). */
function hrefOf(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

function unique<T>(items: T[], key: (item: T) => string): boolean {
  return new Set(items.map(key)).size === items.length;
}

export const setupFileSchema = z
  .strictObject({
    $schema: z.string().optional().describe('The JSON Schema of this file, for editors'),
    version: z.literal(1).describe('The version of this file format'),
    sites: z.array(site),
  })
  .superRefine((file, context) => {
    const duplicate = (path: (string | number)[], what: string) =>
      context.addIssue({ code: 'custom', path, message: `two ${what} with the same name` });
    if (!unique(file.sites, (entry) => entry.name)) {
      duplicate(['sites'], 'sites');
    }
    file.sites.forEach((entry, siteIndex) => {
      if (entry.forms && !unique(entry.forms, (item) => item.name)) {
        duplicate(['sites', siteIndex, 'forms'], 'forms');
      }
      if (entry.members && !unique(entry.members, (item) => item.email.toLowerCase())) {
        duplicate(['sites', siteIndex, 'members'], 'members');
      }
      entry.forms?.forEach((item, formIndex) => {
        if (item.fields && !unique(item.fields, (field) => field.name.trim())) {
          duplicate(['sites', siteIndex, 'forms', formIndex, 'fields'], 'fields');
        }
        if (item.webhooks && !unique(item.webhooks, (hook) => hrefOf(hook.url))) {
          context.addIssue({
            code: 'custom',
            path: ['sites', siteIndex, 'forms', formIndex, 'webhooks'],
            message: 'two webhooks with the same url',
          });
        }
      });
    });
  })
  .describe('Intake setup as code: `intake plan -f FILE` shows the changes, `intake apply -f FILE` makes them');

export type SetupFile = z.infer<typeof setupFileSchema>;
export type SiteSpec = SetupFile['sites'][number];
export type FormSpec = NonNullable<SiteSpec['forms']>[number];
export type WebhookSpec = NonNullable<FormSpec['webhooks']>[number];
export type DeclaredFieldSpec = NonNullable<FormSpec['fields']>[number];
export type CaptchaSpec = NonNullable<FormSpec['captcha']>;
export type BrowserSpec = NonNullable<FormSpec['browser']>;

/** The JSON Schema editors complete the file with (docs/intake-config.schema.json). */
export function setupJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(setupFileSchema, { target: 'draft-2020-12', io: 'input' });
}
