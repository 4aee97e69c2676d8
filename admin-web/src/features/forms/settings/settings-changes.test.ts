import { describe, expect, it } from '@jest/globals';
import type { FormSettingsFieldsFragment } from '../../../gql/graphql';
import { settingsChanges } from './settings-changes.js';
import { MIB, settingsValuesOf, type SettingsValues } from './settings-values.js';

const LIMITS = {
  maxFileSize: 10 * MIB,
  browserMaxBodySize: 10 * MIB,
  browserMaxFileSize: 5 * MIB,
  browserMaxFiles: 3,
  challengeDifficultyDefault: 1000,
  fileTypes: [
    { mimeType: 'application/pdf', label: 'PDF', extensions: ['pdf'] },
    { mimeType: 'image/png', label: 'PNG', extensions: ['png'] },
    { mimeType: 'image/jpeg', label: 'JPEG', extensions: ['jpg', 'jpeg'] },
  ],
};

/** A form as the API returns it: text HTML-safe, on the default file types and size. */
const STORED: FormSettingsFieldsFragment = {
  id: 'form-1',
  name: 'Tom &amp; Jerry',
  code: 'abc123',
  enabled: true,
  allowedMimeTypes: ['application/pdf', 'image/png', 'image/jpeg'],
  usesDefaultMimeTypes: true,
  maxFileSize: 10 * MIB,
  notifyEmails: ['a@example.com', 'b@example.com'],
  honeypotFields: ['website'],
  captchaProvider: null,
  captchaSecretSet: false,
  captchaResponseField: null,
  captchaMinScore: null,
  captchaUnavailableAsSpam: false,
  duplicateWindowSeconds: null,
  maxLinks: 3,
  blockedWords: ['casino', 'R&amp;D'],
  retentionDays: null,
  retentionNextDeletionAt: null,
  fields: [
    { name: 'name', type: 'TEXT', required: true, maxLength: 100, choices: null },
    { name: 'topic', type: 'CHOICE', required: false, maxLength: null, choices: ['Sales', 'R&D'] },
  ],
  unknownFields: 'REFUSE',
  browserPosting: false,
  browserOrigins: [],
  browserThankYouUrls: [],
  browserChallenge: 'REQUIRED',
  browserChallengeDifficulty: 1000,
  browserTexts: {
    language: 'en',
    title: 'Thank you',
    message: 'Your submission was received.',
    received: 'Received',
    reference: 'Reference',
    files: 'Files',
    receipt: 'Download your receipt',
    receiptHelp: 'Keep the receipt: it is signed proof of what was received and when.',
    errorTitle: 'Your submission was not sent',
    back: 'Back to the form',
  },
  browserMaxBodySize: 10 * MIB,
  browserMaxFileSize: 5 * MIB,
  browserMaxFiles: 3,
  browserReservedFields: true,
  maxSubmissions: null,
  maxSubmissionsPerAddress: null,
  capAddressField: null,
  opensAt: null,
  closesAt: '2030-01-01T12:00:30.000Z',
  cappedSubmissions: null,
  closedReason: null,
  confirmationEnabled: false,
  confirmationEmailField: null,
  confirmationSubject: null,
  confirmationTemplate: null,
  confirmationSafeFields: [],
};

function changes(edit: Partial<SettingsValues>, stored: FormSettingsFieldsFragment = STORED) {
  return settingsChanges({ ...settingsValuesOf(stored), ...edit }, stored, LIMITS);
}

describe('settingsChanges', () => {
  it('sends nothing for the fields as the stored settings fill them', () => {
    expect(changes({})).toEqual({ input: {}, errors: {} });
  });

  it('sends the declared fields whole, in their new order, when one changed', () => {
    const [name, topic] = settingsValuesOf(STORED).fields;
    expect(changes({ fields: [topic!, name!] }).input).toEqual({
      fields: [
        { name: 'topic', type: 'CHOICE', required: false, maxLength: null, choices: ['Sales', 'R&D'] },
        { name: 'name', type: 'TEXT', required: true, maxLength: 100, choices: null },
      ],
    });
    // A length is sent only for a type that has one, choices only for a choice.
    expect(changes({ fields: [{ ...name!, type: 'NUMBER', choices: 'x' }] }).input.fields).toEqual([
      { name: 'name', type: 'NUMBER', required: true, maxLength: null, choices: null },
    ]);
    expect(changes({ fields: [], unknownFields: 'DROP' }).input).toEqual({ fields: [], unknownFields: 'DROP' });
  });

  it('asks for a name and for the choices of a choice field before a save', () => {
    const [name, topic] = settingsValuesOf(STORED).fields;
    expect(
      changes({
        fields: [
          { ...name!, name: ' ' },
          { ...topic!, choices: '\n' },
        ],
      }).errors,
    ).toEqual({
      'fields.0.name': 'Enter a name',
      'fields.1.choices': 'Enter the choices, one a line',
    });
  });

  it('compares text as typed with the stored HTML-safe text, trimmed', () => {
    expect(changes({ name: '  Tom & Jerry ' }).input).toEqual({});
    expect(changes({ name: ' Tom & Jerry Ltd ' }).input).toEqual({ name: 'Tom & Jerry Ltd' });
    expect(changes({ blockedWords: 'casino\nR&D\n\ncasino' }).input).toEqual({});
  });

  it('sends a list typed one a line without blanks or repeats, in the order typed', () => {
    expect(changes({ blockedWords: 'R&D\ncasino' }).input).toEqual({ blockedWords: ['R&D', 'casino'] });
    expect(changes({ honeypotFields: ' website \n\nfax\nfax' }).input).toEqual({ honeypotFields: ['website', 'fax'] });
  });

  it('compares e-mail addresses as a set, split on lines and commas', () => {
    expect(changes({ notifyEmails: 'b@example.com, a@example.com' }).input).toEqual({});
    expect(changes({ notifyEmails: 'a@example.com\na@example.com\nb@example.com' }).input).toEqual({
      notifyEmails: ['a@example.com', 'a@example.com', 'b@example.com'],
    });
    expect(changes({ notifyEmails: '' }).input).toEqual({ notifyEmails: [] });
  });

  it('keeps the default file types as null, and refuses none', () => {
    expect(changes({ allowedMimeTypes: ['image/png'] }).input).toEqual({ allowedMimeTypes: ['image/png'] });
    const narrowed = { ...STORED, allowedMimeTypes: ['image/png'], usesDefaultMimeTypes: false };
    expect(changes({ allowedMimeTypes: ['image/jpeg', 'image/png', 'application/pdf'] }, narrowed).input).toEqual({
      allowedMimeTypes: null,
    });
    expect(changes({ allowedMimeTypes: [] })).toEqual({
      input: {},
      errors: { allowedMimeTypes: 'Choose at least one file type' },
    });
  });

  it('sends the file size in bytes, the service maximum as null, and refuses none or a negative size', () => {
    expect(changes({ maxFileSizeMiB: 2.5 }).input).toEqual({ maxFileSize: 2.5 * MIB });
    expect(changes({ maxFileSizeMiB: 10 }, { ...STORED, maxFileSize: 2 * MIB }).input).toEqual({ maxFileSize: null });
    for (const size of ['', 0, -1]) {
      expect(changes({ maxFileSizeMiB: size }).errors).toEqual({ maxFileSize: 'Enter a size above 0' });
    }
  });

  it('turns an emptied number off (null) and a new one on', () => {
    expect(changes({ maxLinks: '' }).input).toEqual({ maxLinks: null });
    expect(changes({ duplicateWindowSeconds: 60, retentionDays: 30 }).input).toEqual({
      duplicateWindowSeconds: 60,
      retentionDays: 30,
    });
  });

  it('asks for the secret of a newly chosen CAPTCHA provider, and sends it with its settings', () => {
    expect(changes({ captchaProvider: 'TURNSTILE' })).toEqual({
      input: { captchaProvider: 'TURNSTILE' },
      errors: { captchaSecret: "Enter the provider's secret key" },
    });
    expect(
      changes({
        captchaProvider: 'RECAPTCHA_V3',
        captchaSecret: ' s3cret ',
        captchaResponseField: 'answer',
        captchaMinScore: 0.7,
        captchaUnavailableAsSpam: true,
      }),
    ).toEqual({
      input: {
        captchaProvider: 'RECAPTCHA_V3',
        captchaSecret: 's3cret',
        captchaResponseField: 'answer',
        captchaMinScore: 0.7,
        captchaUnavailableAsSpam: true,
      },
      errors: {},
    });
  });

  it('keeps a stored secret when the secret field is left empty, and drops the CAPTCHA with null', () => {
    const withCaptcha = {
      ...STORED,
      captchaProvider: 'HCAPTCHA' as const,
      captchaSecretSet: true,
      captchaResponseField: 'h-answer',
    };
    expect(changes({}, withCaptcha)).toEqual({ input: {}, errors: {} });
    expect(changes({ captchaResponseField: '' }, withCaptcha).input).toEqual({ captchaResponseField: null });
    // The CAPTCHA's own fields are not sent once it is off.
    expect(changes({ captchaProvider: '', captchaUnavailableAsSpam: true }, withCaptcha).input).toEqual({
      captchaProvider: null,
    });
    // A minimum score belongs to reCAPTCHA v3 only.
    expect(changes({ captchaMinScore: 0.9 }, withCaptcha).input).toEqual({});
  });

  it('sends browser posting settings that changed, defaults as null, and the challenge off only when confirmed', () => {
    expect(
      changes({
        browserPosting: true,
        browserOrigins: 'https://www.example.org\n\nhttp://localhost:1313 ',
        browserThankYouUrls: 'https://www.example.org/thanks',
        browserChallengeDifficulty: 50,
        browserTexts: { ...settingsValuesOf(STORED).browserTexts, language: 'de', title: ' Danke ', back: '' },
        browserMaxFiles: 1,
        browserMaxFileSizeMiB: 5,
      }).input,
    ).toEqual({
      browserPosting: true,
      browserOrigins: ['https://www.example.org', 'http://localhost:1313'],
      browserThankYouUrls: ['https://www.example.org/thanks'],
      browserChallengeDifficulty: 50,
      browserTexts: expect.objectContaining({
        language: 'de',
        title: 'Danke',
        back: null,
        message: 'Your submission was received.',
      }),
      browserMaxFiles: 1,
    });
    expect(changes({ browserPosting: true }).errors).toEqual({
      browserOrigins: 'Enter the origins of your pages, one a line',
    });
    expect(changes({ browserChallenge: 'OFF' }).errors).toEqual({
      confirmChallengeOff: 'Confirm that any script may then post to this form',
    });
    expect(changes({ browserChallenge: 'OFF', confirmChallengeOff: true }).input).toEqual({
      browserChallenge: 'OFF',
      confirmChallengeOff: true,
    });
  });
});

describe('cap and schedule changes', () => {
  it('sends nothing for untouched settings, a stored time with seconds included', () => {
    expect(changes({})).toEqual({ input: {}, errors: {} });
  });

  it('sends a cap, a per-address cap with its field, and times as UTC', () => {
    const { input, errors } = changes({
      maxSubmissions: 10,
      maxSubmissionsPerAddress: 1,
      capAddressField: 'email',
      opensAt: '2029-06-01T09:00',
      closesAt: '',
    });
    expect(errors).toEqual({});
    expect(input).toEqual({
      maxSubmissions: 10,
      maxSubmissionsPerAddress: 1,
      capAddressField: 'email',
      opensAt: new Date('2029-06-01T09:00').toISOString(),
      closesAt: null,
    });
  });

  it('asks for the address field, and for a closing after the opening', () => {
    const { errors } = changes({
      maxSubmissionsPerAddress: 2,
      opensAt: '2031-01-01T00:00',
      closesAt: '2030-01-01T00:00',
    });
    expect(errors).toEqual({
      capAddressField: 'Choose the e-mail field whose addresses are counted',
      closesAt: 'Choose a closing time after the opening time',
    });
  });
});

describe('confirmation changes', () => {
  it('sends the settings that changed, empty texts as the defaults', () => {
    const { input, errors } = changes({
      confirmationEnabled: true,
      confirmationEmailField: 'email',
      confirmationSubject: '  Thanks for {{form}} ',
      confirmationTemplate: ' ',
      confirmationSafeFields: ['plan'],
    });
    expect(errors).toEqual({});
    expect(input).toEqual({
      confirmationEnabled: true,
      confirmationEmailField: 'email',
      confirmationSubject: 'Thanks for {{form}}',
      confirmationSafeFields: ['plan'],
    });
  });

  it('asks for the address field before confirmations are sent', () => {
    expect(changes({ confirmationEnabled: true }).errors).toEqual({
      confirmationEmailField: 'Choose the e-mail field whose address gets the confirmation',
    });
  });
});
