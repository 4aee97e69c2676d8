// One catalogue of the errors a client may see, each with its HTTP status and its stable `code`
// (docs/intake-api.md lists them). The gateway renders them as RFC 9457 problem details; the admin API maps them to
// GraphQL `extensions.code`. Anything that is not an AppError is an internal fault and is masked.

export const ERROR_CATALOGUE = {
  api_key_missing: { status: 401, title: 'API key missing' },
  api_key_invalid: { status: 403, title: 'API key invalid' },
  token_missing: { status: 401, title: 'Site token missing' },
  token_invalid: { status: 403, title: 'Site token invalid' },
  form_forbidden: { status: 403, title: 'Form not available' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  body_timeout: { status: 408, title: 'Body too slow' },
  body_invalid: { status: 400, title: 'Invalid body' },
  captcha_invalid: { status: 400, title: 'CAPTCHA answer invalid' },
  file_type_not_allowed: { status: 400, title: 'File type not allowed' },
  file_type_mismatch: { status: 400, title: 'File content does not match its type' },
  archive_bomb: { status: 400, title: 'Archive expands beyond the limits' },
  archive_macro: { status: 400, title: 'Document contains macros' },
  archive_executable: { status: 400, title: 'Archive contains an executable' },
  archive_path_traversal: { status: 400, title: 'Archive entry path is unsafe' },
  archive_unreadable: { status: 400, title: 'Archive cannot be inspected' },
  document_active_content: { status: 400, title: 'Document contains active content' },
  file_infected: { status: 400, title: 'File is infected' },
  rate_limited: { status: 429, title: 'Too many requests' },
  scanner_unavailable: { status: 503, title: 'Virus scanner unavailable' },
  captcha_unavailable: { status: 503, title: 'CAPTCHA provider unavailable' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  request_invalid: { status: 400, title: 'Malformed request' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  internal_error: { status: 500, title: 'Internal server error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface AppErrorOptions {
  /** Seconds the client should wait before retrying (429 and 503). */
  retryAfter?: number;
  cause?: unknown;
}

/**
 * An error whose `detail` is safe to show to the client. Never put a secret, a token or a submitted
 * value into `detail`: it is sent as it is.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly retryAfter?: number;

  constructor(code: ErrorCode, detail?: string, options: AppErrorOptions = {}) {
    const entry = ERROR_CATALOGUE[code];
    super(detail ?? entry.title, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = entry.status;
    this.title = entry.title;
    if (options.retryAfter !== undefined) {
      this.retryAfter = options.retryAfter;
    }
  }

  get detail(): string {
    return this.message;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
}

/** RFC 9457 body for an error; unknown errors become a generic 500 that reveals nothing. */
export function toProblem(error: unknown): ProblemDetails {
  const appError = isAppError(error) ? error : new AppError('internal_error', 'An unexpected error occurred.');
  return {
    type: `urn:intake:problem:${appError.code}`,
    title: appError.title,
    status: appError.status,
    detail: appError.detail,
    code: appError.code,
  };
}
