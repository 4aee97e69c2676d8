// The CAPTCHA check of a submission, between the body checks and the file checks: the visitor's
// answer is taken out of the fields (it is never stored) and verified with the form's provider.
import type { SecretBox } from '@intake/shared/delivery';
import type { Form } from '@intake/shared/entities';
import { AppError } from '@intake/shared/errors';
import { DEFAULT_CAPTCHA_RESPONSE_FIELDS } from '@intake/shared/spam';
import type { CaptchaVerifier } from './captcha.js';

export interface CaptchaStage {
  verifier: CaptchaVerifier;
  secrets: SecretBox;
}

export interface CaptchaOutcome {
  /** The fields without the answer. */
  fields: Record<string, unknown>;
  /** The provider could not be reached and the form takes such submissions as spam. */
  unavailableAsSpam: boolean;
}

/**
 * Throws `captcha_invalid` for a missing or refused answer and `captcha_unavailable` for a provider
 * that could not be reached in time, unless the form takes those as spam.
 */
export async function checkCaptcha(
  stage: CaptchaStage,
  form: Form,
  fields: Record<string, unknown>,
  remoteIp: string | undefined,
): Promise<CaptchaOutcome> {
  const provider = form.captchaProvider ?? null;
  if (provider === null) {
    return { fields, unavailableAsSpam: false };
  }
  if (!form.captchaSealedSecret) {
    // The admin API never leaves a provider without its secret; if a row does, fail closed.
    throw new AppError('captcha_unavailable', 'The CAPTCHA answer could not be verified. Retry later.', {
      retryAfter: 5,
    });
  }
  const field = form.captchaResponseField ?? DEFAULT_CAPTCHA_RESPONSE_FIELDS[provider];
  const { [field]: answer, ...rest } = fields;
  if (typeof answer !== 'string' || answer.trim() === '') {
    throw new AppError('captcha_invalid', 'The CAPTCHA answer is missing.');
  }
  const verdict = await stage.verifier.verify({
    provider,
    secret: stage.secrets.open(form.captchaSealedSecret),
    response: answer,
    remoteIp,
    minScore: form.captchaMinScore ?? null,
  });
  if (verdict === 'refused') {
    throw new AppError('captcha_invalid', 'The CAPTCHA answer was not accepted.');
  }
  if (verdict === 'unavailable') {
    if (!form.captchaUnavailableAsSpam) {
      throw new AppError('captcha_unavailable', 'The CAPTCHA answer could not be verified. Retry later.', {
        retryAfter: 5,
      });
    }
    return { fields: rest, unavailableAsSpam: true };
  }
  return { fields: rest, unavailableAsSpam: false };
}
