// A form's spam protection settings: their input fields, and how a checked change applies to the
// form (the CAPTCHA rules depend on what the form has already).
import { CAPTCHA_PROVIDERS, type Form } from '@intake/shared/entities';
import { createCaptchaSecretBox } from '@intake/shared/spam';
import { z } from 'zod';
import { badUserInput } from '../../schema/errors.js';
import {
  blockedWords,
  captchaSecret,
  DUPLICATE_WINDOW_MAX_SECONDS,
  honeypotFields,
  MAX_LINKS_MAX,
  minScore,
  optionalCount,
  responseField,
} from '../../validation/spam-fields.js';

/** The spam protection fields of UpdateFormInput; absent leaves a setting as it is, null turns it off. */
export const spamSettingsFields = {
  honeypotFields: honeypotFields.optional(),
  captchaProvider: z.enum(CAPTCHA_PROVIDERS).nullable().optional(),
  captchaSecret: captchaSecret.optional(),
  captchaResponseField: responseField.optional(),
  captchaMinScore: minScore.optional(),
  captchaUnavailableAsSpam: z.boolean({ error: 'cannot be null' }).optional(),
  duplicateWindowSeconds: optionalCount(1, DUPLICATE_WINDOW_MAX_SECONDS).optional(),
  maxLinks: optionalCount(0, MAX_LINKS_MAX).optional(),
  blockedWords: blockedWords.optional(),
};

export type SpamSettings = z.output<z.ZodObject<typeof spamSettingsFields>>;

/**
 * Applies checked settings. A CAPTCHA provider needs a secret: given with it, or kept from before
 * when the provider does not change (another provider's secret would not work). Turning the
 * CAPTCHA off forgets the secret and the answer field.
 */
export function applySpamSettings(form: Form, settings: SpamSettings, tokenEncryptionKey: Buffer): void {
  const provider = settings.captchaProvider === undefined ? (form.captchaProvider ?? null) : settings.captchaProvider;
  if (provider === null) {
    if (settings.captchaSecret !== undefined) {
      throw badUserInput('input.captchaSecret', 'needs a captchaProvider');
    }
    form.captchaProvider = null;
    form.captchaSealedSecret = null;
    form.captchaResponseField = null;
  } else {
    const changed = provider !== (form.captchaProvider ?? null);
    if (settings.captchaSecret === undefined && (changed || !form.captchaSealedSecret)) {
      throw badUserInput('input.captchaSecret', 'is required when a CAPTCHA provider is set or changed');
    }
    form.captchaProvider = provider;
    if (settings.captchaSecret !== undefined) {
      form.captchaSealedSecret = createCaptchaSecretBox(tokenEncryptionKey).seal(settings.captchaSecret);
    }
  }
  if (settings.captchaResponseField !== undefined && provider !== null) {
    form.captchaResponseField = settings.captchaResponseField;
  }
  if (settings.captchaMinScore !== undefined) {
    form.captchaMinScore = settings.captchaMinScore;
  }
  if (settings.captchaUnavailableAsSpam !== undefined) {
    form.captchaUnavailableAsSpam = settings.captchaUnavailableAsSpam;
  }
  if (settings.honeypotFields !== undefined) {
    form.honeypotFields = settings.honeypotFields;
  }
  if (settings.duplicateWindowSeconds !== undefined) {
    form.duplicateWindowSeconds = settings.duplicateWindowSeconds;
  }
  if (settings.maxLinks !== undefined) {
    form.maxLinks = settings.maxLinks;
  }
  if (settings.blockedWords !== undefined) {
    form.blockedWords = settings.blockedWords;
  }
}
