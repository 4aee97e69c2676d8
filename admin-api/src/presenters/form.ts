import { DEFAULT_ALLOWED_MIME_TYPES } from '@intake/shared/mime-types';
import { DEFAULT_CAPTCHA_RESPONSE_FIELDS } from '@intake/shared/spam';
import type { Form } from '@intake/shared/entities';
import { fromJsonSchema } from '@intake/shared/form-shape';
import type { CaptchaProviderEnum, FormFieldType, FormType, UnknownFieldsEnum } from '../types/form.type.js';
import { GRAPHQL_INT_MAX } from '../validation/fields.js';

/** `globalMaxFileSize` is MAX_FILE_SIZE, what a form without its own limit gets. */
export function presentForm(form: Form, globalMaxFileSize: number): FormType {
  const ownTypes = form.allowedMimeTypes ?? null;
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
    createdAt: form.createdAt.toISOString(),
    updatedAt: form.updatedAt.toISOString(),
  };
}
