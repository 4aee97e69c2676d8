import type { Config } from '@intake/shared/config';
import { CAPTCHA_PROVIDERS } from '@intake/shared/entities';
import { RETENTION_DAYS_MAX } from '@intake/shared/lifecycle';
import { DEFAULT_ALLOWED_MIME_TYPES, MIME_TYPE_BY_EXTENSION, type KnownMimeType } from '@intake/shared/mime-types';
import { DEFAULT_CAPTCHA_RESPONSE_FIELDS, DEFAULT_RECAPTCHA_V3_MIN_SCORE } from '@intake/shared/spam';
import type { CaptchaProviderEnum } from './form.type.js';
import type { LimitsType } from './limits.type.js';
import { GRAPHQL_INT_MAX } from '../validation/fields.js';
import {
  NOTIFY_EMAILS_MAX,
  BLOCKED_WORDS_MAX,
  DUPLICATE_WINDOW_MAX_SECONDS,
  HONEYPOT_FIELDS_MAX,
  MAX_LINKS_MAX,
  CHALLENGE_DIFFICULTY_DEFAULT,
} from '@intake/shared/input-fields';

const LABELS: Record<KnownMimeType, string> = {
  'image/jpeg': 'JPEG image',
  'image/png': 'PNG image',
  'image/gif': 'GIF image',
  'image/webp': 'WebP image',
  'application/pdf': 'PDF document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document (DOCX)',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel workbook (XLSX)',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint presentation (PPTX)',
  'application/zip': 'ZIP archive',
  'application/vnd.rar': 'RAR archive',
  'application/x-7z-compressed': '7z archive',
  'text/plain': 'Plain text',
};

export function presentLimits(config: Config): LimitsType {
  return {
    maxFileSize: Math.min(config.limits.maxFileSize, GRAPHQL_INT_MAX),
    maxFiles: config.limits.maxFiles,
    maxBodySize: Math.min(config.limits.maxBodySize, GRAPHQL_INT_MAX),
    browserMaxBodySize: Math.min(config.browser.maxBodySize, config.limits.maxBodySize, GRAPHQL_INT_MAX),
    browserMaxFileSize: Math.min(config.browser.maxFileSize, config.limits.maxFileSize, GRAPHQL_INT_MAX),
    browserMaxFiles: Math.min(config.browser.maxFiles, config.limits.maxFiles),
    challengeDifficultyDefault: CHALLENGE_DIFFICULTY_DEFAULT,
    fileTypes: DEFAULT_ALLOWED_MIME_TYPES.map((mimeType) => ({
      mimeType,
      label: LABELS[mimeType],
      extensions: [...MIME_TYPE_BY_EXTENSION].filter(([, type]) => type === mimeType).map(([extension]) => extension),
    })),
    notifyEmailsMax: NOTIFY_EMAILS_MAX,
    honeypotFieldsMax: HONEYPOT_FIELDS_MAX,
    duplicateWindowMaxSeconds: DUPLICATE_WINDOW_MAX_SECONDS,
    maxLinksMax: MAX_LINKS_MAX,
    blockedWordsMax: BLOCKED_WORDS_MAX,
    retentionDaysMax: RETENTION_DAYS_MAX,
    captchaMinScoreDefault: DEFAULT_RECAPTCHA_V3_MIN_SCORE,
    captchaProviders: CAPTCHA_PROVIDERS.map((provider) => ({
      provider: provider as CaptchaProviderEnum,
      defaultResponseField: DEFAULT_CAPTCHA_RESPONSE_FIELDS[provider],
    })),
    // Only whether it is set: the URL may hold the SMTP password.
    emailConfigured: config.delivery.smtpUrl !== undefined,
  };
}
