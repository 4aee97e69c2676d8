import { DEFAULT_ALLOWED_MIME_TYPES } from '@intake/shared/mime-types';
import { DEFAULT_CAPTCHA_RESPONSE_FIELDS } from '@intake/shared/spam';
import { browserLimitsOf, browserTextsOf, challengeDifficultyOf } from '@intake/shared/browser-posting';
import type { Config } from '@intake/shared/config';
import type { Form } from '@intake/shared/entities';
import { fromJsonSchema } from '@intake/shared/form-shape';
import type {
  BrowserChallengeEnum,
  CaptchaProviderEnum,
  FormFieldType,
  FormType,
  UnknownFieldsEnum,
} from './form.type.js';
import { GRAPHQL_INT_MAX } from '../validation/fields.js';

/** The limits are the configuration's: what a form without its own limits gets. */
export function presentForm(form: Form, config: Pick<Config, 'limits' | 'browser'>): FormType {
  const globalMaxFileSize = config.limits.maxFileSize;
  const ownTypes = form.allowedMimeTypes ?? null;
  const browserLimits = browserLimitsOf(form, config);
  return {
    id: form.id,
    siteId: form.site.id,
    name: form.name,
    code: form.code,
    enabled: form.enabled,
    allowedMimeTypes: ownTypes === null ? [...DEFAULT_ALLOWED_MIME_TYPES] : [...ownTypes],
    usesDefaultMimeTypes: ownTypes === null,
    maxFileSize: Math.min(form.maxFileSize ?? globalMaxFileSize, GRAPHQL_INT_MAX),
    notifyEmails: [...(form.notifyEmails ?? [])],
    honeypotFields: [...(form.honeypotFields ?? [])],
    captchaProvider: (form.captchaProvider ?? null) as CaptchaProviderEnum | null,
    captchaSecretSet: Boolean(form.captchaSealedSecret),
    captchaResponseField: form.captchaProvider
      ? (form.captchaResponseField ?? DEFAULT_CAPTCHA_RESPONSE_FIELDS[form.captchaProvider])
      : null,
    captchaMinScore: form.captchaMinScore ?? null,
    captchaUnavailableAsSpam: form.captchaUnavailableAsSpam ?? false,
    duplicateWindowSeconds: form.duplicateWindowSeconds ?? null,
    maxLinks: form.maxLinks ?? null,
    blockedWords: [...(form.blockedWords ?? [])],
    retentionDays: form.retentionDays ?? null,
    fields: form.fieldsSchema ? (fromJsonSchema(form.fieldsSchema) as FormFieldType[]) : [],
    unknownFields: (form.unknownFields ?? 'refuse') as UnknownFieldsEnum,
    browserPosting: form.browserPosting ?? false,
    browserOrigins: [...(form.browserOrigins ?? [])],
    browserThankYouUrls: [...(form.browserThankYouUrls ?? [])],
    browserChallenge: (form.browserChallenge ?? 'required') as BrowserChallengeEnum,
    browserChallengeDifficulty: challengeDifficultyOf(form),
    browserTexts: browserTextsOf(form),
    browserMaxBodySize: Math.min(browserLimits.maxBodySize, GRAPHQL_INT_MAX),
    browserMaxFileSize: Math.min(browserLimits.maxFileSize, GRAPHQL_INT_MAX),
    browserMaxFiles: browserLimits.maxFiles,
    browserReservedFields: form.browserReservedFields ?? true,
    maxSubmissions: form.maxSubmissions ?? null,
    maxSubmissionsPerAddress: form.maxSubmissionsPerAddress ?? null,
    capAddressField: form.capAddressField ?? null,
    opensAt: form.opensAt ? form.opensAt.toISOString() : null,
    closesAt: form.closesAt ? form.closesAt.toISOString() : null,
    confirmationEnabled: form.confirmationEnabled ?? false,
    confirmationEmailField: form.confirmationEmailField ?? null,
    confirmationSubject: form.confirmationSubject ?? null,
    confirmationTemplate: form.confirmationTemplate ?? null,
    confirmationSafeFields: [...(form.confirmationSafeFields ?? [])],
    createdAt: form.createdAt.toISOString(),
    updatedAt: form.updatedAt.toISOString(),
  };
}
