// How a checked CAPTCHA change applies to a form: unlike the other settings it is not a plain
// copy, because its rules depend on what the form has already and its secret is stored sealed.
import type { Form } from '@intake/shared/entities';
import { createCaptchaSecretBox } from '@intake/shared/spam';
import { badUserInput } from '../errors.js';
import type { UpdateFormInput } from './form.input.js';

export type CaptchaSettings = Pick<UpdateFormInput, 'captchaProvider' | 'captchaSecret' | 'captchaResponseField'>;

/**
 * A CAPTCHA provider needs a secret: given with it, or kept from before when the provider does not
 * change (another provider's secret would not work). Turning the CAPTCHA off forgets the secret
 * and the answer field.
 */
export function applyCaptchaSettings(form: Form, settings: CaptchaSettings, tokenEncryptionKey: Buffer): void {
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
}
