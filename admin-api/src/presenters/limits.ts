import type { Config } from '@intake/shared/config';
import { DEFAULT_ALLOWED_MIME_TYPES, MIME_TYPE_BY_EXTENSION, type KnownMimeType } from '@intake/shared/mime-types';
import type { LimitsType } from '../types/limits.type.js';
import { GRAPHQL_INT_MAX } from '../validation/fields.js';

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
    fileTypes: DEFAULT_ALLOWED_MIME_TYPES.map((mimeType) => ({
      mimeType,
      label: LABELS[mimeType],
      extensions: [...MIME_TYPE_BY_EXTENSION].filter(([, type]) => type === mimeType).map(([extension]) => extension),
    })),
  };
}
