import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { UNKNOWN_FIELD_POLICIES, type FormJsonSchema } from '../form-shape/index.js';
import { BROWSER_CHALLENGE_MODES, type BrowserTexts } from '@intake/contract';
import { SiteSchema } from './site.js';
import { createdAtProperty, idProperty, updatedAtProperty } from './timestamps.js';

export const CAPTCHA_PROVIDERS = ['turnstile', 'hcaptcha', 'recaptcha_v2', 'recaptcha_v3'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

// A form belongs to one site and is addressed by its random public `code` in the intake URL.
// `allowedMimeTypes` null means the contract's 12 defaults; `maxFileSize` null means MAX_FILE_SIZE.
export const FormSchema = defineEntity({
  name: 'Form',
  tableName: 'forms',
  properties: {
    id: idProperty(),
    site: () => p.manyToOne(SiteSchema).deleteRule('cascade').index(),
    name: p.string().length(200),
    code: p.string().length(64).unique(),
    enabled: p.boolean().default(true),
    allowedMimeTypes: p.array().nullable(),
    maxFileSize: p.integer().nullable(),
    /** Addresses told of every new submission by e-mail; null means none. */
    notifyEmails: p.array().nullable(),
    // Spam protection, every part off while null (docs/spam-protection.md).
    /** Fields a person never fills: any of them non-empty makes the submission spam. */
    honeypotFields: p.array().nullable(),
    captchaProvider: p.enum(CAPTCHA_PROVIDERS).nullable().columnType('varchar(16)'),
    /** The provider's secret key, sealed like webhook secrets; never leaves the services. */
    captchaSealedSecret: p.text().nullable(),
    /** The field carrying the visitor's answer; null means the provider's usual name. */
    captchaResponseField: p.string().length(100).nullable(),
    /** reCAPTCHA v3: answers scored below this are refused. */
    captchaMinScore: p.float().nullable(),
    /** A provider that cannot be reached: store as spam instead of answering 503. */
    captchaUnavailableAsSpam: p.boolean().default(false),
    /** The same content to this form within this many seconds is stored once. */
    duplicateWindowSeconds: p.integer().nullable(),
    /** More links than this across all values makes the submission spam. */
    maxLinks: p.integer().nullable(),
    /** Words or phrases (whole-word, case-insensitive) that make a submission spam. */
    blockedWords: p.array().nullable(),
    /** Days a submission is kept before the retention sweep deletes it; null keeps it for ever. */
    retentionDays: p.integer().nullable(),
    /**
     * The declared fields as a JSON Schema (docs/form-fields.md); null: every key is accepted. `json`,
     * not `jsonb`: it keeps the properties in the order the fields were declared.
     */
    fieldsSchema: p.json<FormJsonSchema>().columnType('json').nullable(),
    /** What becomes of a field the shape does not declare (only read when there is a shape). */
    unknownFields: p.enum(UNKNOWN_FIELD_POLICIES).columnType('varchar(8)').default('refuse'),
    // Browser posting (docs/static-sites.md): posts without credentials from the listed origins.
    browserPosting: p.boolean().default(false),
    /** Exact origins whose pages may post; null: none. */
    browserOrigins: p.array().nullable(),
    /** Exact addresses a browser is sent to after a post, the first by default; null: Intake's own page. */
    browserThankYouUrls: p.array().nullable(),
    /** The proof-of-work challenge: required, recorded only (spam without it), or off. */
    browserChallenge: p.enum(BROWSER_CHALLENGE_MODES).columnType('varchar(16)').default('required'),
    /** Average attempts a challenge takes; null: CHALLENGE_DIFFICULTY_DEFAULT. */
    browserChallengeDifficulty: p.integer().nullable(),
    /** The visitor's pages' texts, each null for the default. */
    browserTexts: p.json<BrowserTexts>().nullable(),
    /** Limits of a browser post; null: the BROWSER_* settings. */
    browserMaxBodySize: p.integer().nullable(),
    browserMaxFileSize: p.integer().nullable(),
    browserMaxFiles: p.integer().nullable(),
    /** Whether `_next`, `_subject`, `_replyto`, `_gotcha` and their equivalents are understood. */
    browserReservedFields: p.boolean().default(true),
    // Caps and a schedule (docs/submissions.md#caps-and-a-schedule), each off while null.
    /** At most this many submissions (spam aside) for the form's whole life. */
    maxSubmissions: p.integer().nullable(),
    /** At most this many per address in `capAddressField`, a declared EMAIL field. */
    maxSubmissionsPerAddress: p.integer().nullable(),
    capAddressField: p.string().length(100).nullable(),
    /** Submissions are refused before this time and from `closesAt` on. */
    opensAt: p.datetime().nullable(),
    closesAt: p.datetime().nullable(),
    // The confirmation to the submitter (docs/confirmations.md), off unless `confirmationEnabled`.
    confirmationEnabled: p.boolean().default(false),
    /** The declared EMAIL field whose address gets the confirmation. */
    confirmationEmailField: p.string().length(100).nullable(),
    /** Subject and message templates; null: the defaults. Placeholders only, never a visitor's free text. */
    confirmationSubject: p.string().length(200).nullable(),
    confirmationTemplate: p.text().nullable(),
    /** Declared CHOICE, BOOLEAN or NUMBER fields whose values the templates may repeat. */
    confirmationSafeFields: p.array().nullable(),
    createdAt: createdAtProperty(),
    updatedAt: updatedAtProperty(),
    deletedAt: p.datetime().nullable(),
  },
  // A zero or negative retention would delete every submission of the form at the next run.
  // A cap below one, or a closing not after the opening, would refuse every submission.
  checks: [
    { name: 'forms_retention_days_check', expression: 'retention_days > 0' },
    { name: 'forms_max_submissions_check', expression: 'max_submissions > 0' },
    { name: 'forms_max_submissions_per_address_check', expression: 'max_submissions_per_address > 0' },
    { name: 'forms_schedule_check', expression: 'opens_at < closes_at' },
  ],
});

export type Form = InferEntity<typeof FormSchema>;
