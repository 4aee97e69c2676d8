import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum CaptchaProviderEnum {
  TURNSTILE = 'turnstile',
  HCAPTCHA = 'hcaptcha',
  RECAPTCHA_V2 = 'recaptcha_v2',
  RECAPTCHA_V3 = 'recaptcha_v3',
}

registerEnumType(CaptchaProviderEnum, {
  name: 'CaptchaProvider',
  description: 'The CAPTCHA service that checks the answer a form forwards.',
  valuesConfig: {
    TURNSTILE: { description: 'Cloudflare Turnstile.' },
    HCAPTCHA: { description: 'hCaptcha.' },
    RECAPTCHA_V2: { description: 'Google reCAPTCHA v2.' },
    RECAPTCHA_V3: { description: 'Google reCAPTCHA v3: scored, see `captchaMinScore`.' },
  },
});

export enum FormClosedReasonEnum {
  NOT_YET_OPEN = 'not_yet_open',
  CLOSED = 'closed',
  FULL = 'full',
}

registerEnumType(FormClosedReasonEnum, {
  name: 'FormClosedReason',
  description: 'Why a form takes no submission now (403 form_closed on the gateway).',
  valuesConfig: {
    NOT_YET_OPEN: { description: 'Before its opensAt.' },
    CLOSED: { description: 'At or after its closesAt.' },
    FULL: { description: 'It has taken maxSubmissions submissions.' },
  },
});

export enum FieldTypeEnum {
  TEXT = 'text',
  EMAIL = 'email',
  NUMBER = 'number',
  BOOLEAN = 'boolean',
  CHOICE = 'choice',
  LIST = 'list',
}

registerEnumType(FieldTypeEnum, {
  name: 'FieldType',
  description: 'The type of a declared field (docs/form-fields.md).',
  valuesConfig: {
    TEXT: { description: 'Text.' },
    EMAIL: { description: 'An e-mail address.' },
    NUMBER: { description: 'A number (form bodies send it as text, read as a number).' },
    BOOLEAN: { description: 'true or false (a checked HTML checkbox, `on`, is true).' },
    CHOICE: { description: 'One of `choices`.' },
    LIST: { description: 'A list of text (a repeated form field).' },
  },
});

export enum UnknownFieldsEnum {
  REFUSE = 'refuse',
  DROP = 'drop',
}

registerEnumType(UnknownFieldsEnum, {
  name: 'UnknownFields',
  description: 'What becomes of a submitted field the form does not declare.',
  valuesConfig: {
    REFUSE: { description: 'The submission is refused with 400 fields_invalid.' },
    DROP: { description: 'The field is left out; the rest is stored.' },
  },
});

export enum BrowserChallengeEnum {
  REQUIRED = 'required',
  RECORD_ONLY = 'record_only',
  OFF = 'off',
}

registerEnumType(BrowserChallengeEnum, {
  name: 'BrowserChallenge',
  description: 'The proof-of-work challenge of browser posts (docs/static-sites.md).',
  valuesConfig: {
    REQUIRED: { description: 'A post without a valid answer is refused (400 captcha_invalid).' },
    RECORD_ONLY: { description: 'A post without a valid answer is stored as spam with the reason.' },
    OFF: { description: 'No challenge: any script may post. Set only with confirmChallengeOff.' },
  },
});

@ObjectType('BrowserTexts', {
  description: "The texts of the pages a visitor sees after a browser post, in the form's language.",
})
export class BrowserTextsType {
  @Field(() => String, { description: "A language tag (the pages' `lang`, dates in its format)." })
  language!: string;

  @Field(() => String)
  title!: string;

  @Field(() => String)
  message!: string;

  @Field(() => String, { description: 'Label of the time of receipt.' })
  received!: string;

  @Field(() => String, { description: 'Label of the submission id.' })
  reference!: string;

  @Field(() => String, { description: 'Label of the list of files.' })
  files!: string;

  @Field(() => String, { description: 'The receipt download button.' })
  receipt!: string;

  @Field(() => String, { description: 'What the receipt is good for.' })
  receiptHelp!: string;

  @Field(() => String, { description: 'Title of the refusal page.' })
  errorTitle!: string;

  @Field(() => String, { description: "The refusal page's link back to the form." })
  back!: string;
}

@ObjectType('FormField', { description: 'A field a form declares; a submission must match them.' })
export class FormFieldType {
  @Field(() => String)
  name!: string;

  @Field(() => FieldTypeEnum)
  type!: FieldTypeEnum;

  @Field(() => Boolean)
  required!: boolean;

  @Field(() => Int, { nullable: true, description: 'Characters (per item of a LIST); null: no own limit.' })
  maxLength!: number | null;

  @Field(() => [String], { nullable: true, description: 'The accepted values of a CHOICE; null for other types.' })
  choices!: string[] | null;
}

@ObjectType('Form', { description: 'A form of a site, addressed by its public code in /api/v1/send/:code.' })
export class FormType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  siteId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  code!: string;

  @Field(() => Boolean)
  enabled!: boolean;

  @Field(() => [String], { description: 'MIME types this form accepts (the 12 defaults unless narrowed).' })
  allowedMimeTypes!: string[];

  @Field(() => Boolean, { description: 'True when allowedMimeTypes is the default list.' })
  usesDefaultMimeTypes!: boolean;

  @Field(() => Int, { description: 'Bytes per file (MAX_FILE_SIZE unless lowered).' })
  maxFileSize!: number;

  @Field(() => [String], { description: 'Addresses e-mailed about every new submission (none: empty).' })
  notifyEmails!: string[];

  @Field(() => [String], { description: 'Honeypot fields: any of them non-empty makes a submission spam.' })
  honeypotFields!: string[];

  @Field(() => CaptchaProviderEnum, { nullable: true, description: 'Null: no CAPTCHA is required.' })
  captchaProvider!: CaptchaProviderEnum | null;

  @Field(() => Boolean, { description: 'Whether a CAPTCHA secret is stored (the secret itself is write-only).' })
  captchaSecretSet!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      "The field carrying the visitor's answer (the provider's usual name unless set); null without a provider.",
  })
  captchaResponseField!: string | null;

  @Field(() => Float, { nullable: true, description: 'reCAPTCHA v3: the lowest accepted score (0.5 unless set).' })
  captchaMinScore!: number | null;

  @Field(() => Boolean, {
    description: 'A provider that cannot be reached: store the submission as spam instead of answering 503.',
  })
  captchaUnavailableAsSpam!: boolean;

  @Field(() => Int, { nullable: true, description: 'Seconds in which the same content is stored once; null: off.' })
  duplicateWindowSeconds!: number | null;

  @Field(() => Int, { nullable: true, description: 'More links than this across all values is spam; null: off.' })
  maxLinks!: number | null;

  @Field(() => [String], {
    description: 'Words or phrases (whole-word, case-insensitive) that make a submission spam.',
  })
  blockedWords!: string[];

  @Field(() => Int, {
    nullable: true,
    description: 'Days a submission (spam included) is kept before it is deleted with its files; null: for ever.',
  })
  retentionDays!: number | null;

  @Field(() => [FormFieldType], {
    description: 'The fields the form declares, in order; empty: every key is accepted (docs/form-fields.md).',
  })
  fields!: FormFieldType[];

  @Field(() => UnknownFieldsEnum, { description: 'What becomes of an undeclared field when fields are declared.' })
  unknownFields!: UnknownFieldsEnum;

  @Field(() => Boolean, {
    description: 'Posts without credentials from the pages of browserOrigins are taken (docs/static-sites.md).',
  })
  browserPosting!: boolean;

  @Field(() => [String], { description: 'The exact origins whose pages may post from a browser.' })
  browserOrigins!: string[];

  @Field(() => [String], {
    description:
      "Where a browser goes after a post: the first, or another one a `_next` field names; empty: Intake's page.",
  })
  browserThankYouUrls!: string[];

  @Field(() => BrowserChallengeEnum)
  browserChallenge!: BrowserChallengeEnum;

  @Field(() => Int, { description: 'Average attempts a browser makes to solve the challenge.' })
  browserChallengeDifficulty!: number;

  @Field(() => BrowserTextsType, { description: 'The texts of the thank-you and refusal pages (defaults filled in).' })
  browserTexts!: BrowserTextsType;

  @Field(() => Int, { description: 'Bytes per browser post (BROWSER_MAX_BODY_SIZE unless set).' })
  browserMaxBodySize!: number;

  @Field(() => Int, { description: 'Bytes per file of a browser post (the smallest of the limits that apply).' })
  browserMaxFileSize!: number;

  @Field(() => Int, { description: 'Files per browser post (BROWSER_MAX_FILES unless set).' })
  browserMaxFiles!: number;

  @Field(() => Boolean, {
    description: 'Whether `_next`, `_subject`, `_replyto`, `_gotcha` and their equivalents are understood.',
  })
  browserReservedFields!: boolean;

  @Field(() => Int, { nullable: true, description: 'At most this many submissions (spam not counted); null: no cap.' })
  maxSubmissions!: number | null;

  @Field(() => Int, { nullable: true, description: 'At most this many per address of capAddressField; null: none.' })
  maxSubmissionsPerAddress!: number | null;

  @Field(() => String, { nullable: true, description: 'The declared EMAIL field a per-address cap counts.' })
  capAddressField!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601: submissions are refused before it; null: open.' })
  opensAt!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601: submissions are refused from then on; null: never.' })
  closesAt!: string | null;

  @Field(() => Boolean, { description: 'Whether a confirmation goes to the address in confirmationEmailField.' })
  confirmationEnabled!: boolean;

  @Field(() => String, { nullable: true, description: 'The declared EMAIL field whose address gets the confirmation.' })
  confirmationEmailField!: string | null;

  @Field(() => String, { nullable: true, description: "The confirmation's subject template; null: the default." })
  confirmationSubject!: string | null;

  @Field(() => String, { nullable: true, description: "The confirmation's message template; null: the default." })
  confirmationTemplate!: string | null;

  @Field(() => [String], { description: 'Declared CHOICE, BOOLEAN or NUMBER fields the confirmation may repeat.' })
  confirmationSafeFields!: string[];

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt!: string;

  @Field(() => String, { description: 'ISO 8601.' })
  updatedAt!: string;
}
