// The one catalogue of the errors a client may see (Outline's `server/errors.ts` is the model). Each
// entry has its HTTP status, its stable `code` (the key: the `code` of a problem document), the
// `extensions.code` the admin API answers with, and a fixed title. The gateway (and both services'
// HTTP parser refusals) render them as RFC 9457 problem details with `toProblem`; the admin API's
// `formatError` maps them to GraphQL errors. docs/intake-api.md and docs/admin-api.md list the
// codes: errors.test.ts holds those lists to this file, and the gateway's openapi.test.ts its
// OpenAPI document.
// Anything that is not an AppError is an internal fault and is masked as `internal_error`.
//
// A few Error subclasses stay local to their module because no client ever sees them as they are:
// each is turned into an entry of this catalogue where it meets a client, or never leaves the
// process (ConfigError, AddressRefusedError, SiteTokenError, ClamdError, SevenZipWorkerError,
// ExportProcessError, and the control-flow errors of send-webhook.ts and ooxml.ts).

/** Where a client meets an error: as a problem document, as a GraphQL error, or both. */
export type ErrorTransport = 'problem' | 'graphql';

const PROBLEM = ['problem'] as const;
const GRAPHQL = ['graphql'] as const;
const EVERYWHERE = ['problem', 'graphql'] as const;

export interface ErrorEntry {
  /**
   * The status of a problem document. A GraphQL error is sent with HTTP 200 unless the admin API's
   * factory sets this status (401 and 429 do).
   */
  readonly status: number;
  /**
   * `extensions.code` on the admin API. The gateway's own refusals never reach it; theirs is the
   * code in upper case, what a shared module's refusal would be answered with there.
   */
  readonly graphqlCode: string;
  readonly title: string;
  /** Where clients meet it, as documented (intake-api.md for `problem`, admin-api.md for `graphql`). */
  readonly via: readonly ErrorTransport[];
}

export const ERROR_CATALOGUE = {
  api_key_missing: { status: 401, graphqlCode: 'API_KEY_MISSING', title: 'API key missing', via: PROBLEM },
  api_key_invalid: { status: 403, graphqlCode: 'API_KEY_INVALID', title: 'API key invalid', via: PROBLEM },
  token_missing: { status: 401, graphqlCode: 'TOKEN_MISSING', title: 'Site token missing', via: PROBLEM },
  token_invalid: { status: 403, graphqlCode: 'TOKEN_INVALID', title: 'Site token invalid', via: PROBLEM },
  form_forbidden: { status: 403, graphqlCode: 'FORM_FORBIDDEN', title: 'Form not available', via: PROBLEM },
  // A browser post (docs/static-sites.md) from a page whose origin the form does not list.
  origin_not_allowed: {
    status: 403,
    graphqlCode: 'ORIGIN_NOT_ALLOWED',
    title: 'Origin not allowed',
    via: PROBLEM,
  },
  unsupported_media_type: {
    status: 415,
    graphqlCode: 'UNSUPPORTED_MEDIA_TYPE',
    title: 'Unsupported media type',
    via: PROBLEM,
  },
  payload_too_large: { status: 413, graphqlCode: 'PAYLOAD_TOO_LARGE', title: 'Payload too large', via: PROBLEM },
  body_timeout: { status: 408, graphqlCode: 'BODY_TIMEOUT', title: 'Body too slow', via: PROBLEM },
  body_invalid: { status: 400, graphqlCode: 'BODY_INVALID', title: 'Invalid body', via: PROBLEM },
  fields_invalid: {
    status: 400,
    graphqlCode: 'FIELDS_INVALID',
    title: "Fields do not match the form's declared fields",
    via: PROBLEM,
  },
  captcha_invalid: { status: 400, graphqlCode: 'CAPTCHA_INVALID', title: 'CAPTCHA answer invalid', via: PROBLEM },
  file_type_not_allowed: {
    status: 400,
    graphqlCode: 'FILE_TYPE_NOT_ALLOWED',
    title: 'File type not allowed',
    via: PROBLEM,
  },
  file_type_mismatch: {
    status: 400,
    graphqlCode: 'FILE_TYPE_MISMATCH',
    title: 'File content does not match its type',
    via: PROBLEM,
  },
  archive_bomb: { status: 400, graphqlCode: 'ARCHIVE_BOMB', title: 'Archive expands beyond the limits', via: PROBLEM },
  archive_macro: { status: 400, graphqlCode: 'ARCHIVE_MACRO', title: 'Document contains macros', via: PROBLEM },
  archive_executable: {
    status: 400,
    graphqlCode: 'ARCHIVE_EXECUTABLE',
    title: 'Archive contains an executable',
    via: PROBLEM,
  },
  archive_path_traversal: {
    status: 400,
    graphqlCode: 'ARCHIVE_PATH_TRAVERSAL',
    title: 'Archive entry path is unsafe',
    via: PROBLEM,
  },
  archive_unreadable: {
    status: 400,
    graphqlCode: 'ARCHIVE_UNREADABLE',
    title: 'Archive cannot be inspected',
    via: PROBLEM,
  },
  document_active_content: {
    status: 400,
    graphqlCode: 'DOCUMENT_ACTIVE_CONTENT',
    title: 'Document contains active content',
    via: PROBLEM,
  },
  file_infected: { status: 400, graphqlCode: 'FILE_INFECTED', title: 'File is infected', via: PROBLEM },
  rate_limited: { status: 429, graphqlCode: 'RATE_LIMITED', title: 'Too many requests', via: EVERYWHERE },
  scanner_unavailable: {
    status: 503,
    graphqlCode: 'SCANNER_UNAVAILABLE',
    title: 'Virus scanner unavailable',
    via: PROBLEM,
  },
  captcha_unavailable: {
    status: 503,
    graphqlCode: 'CAPTCHA_UNAVAILABLE',
    title: 'CAPTCHA provider unavailable',
    via: PROBLEM,
  },
  service_unavailable: {
    status: 503,
    graphqlCode: 'SERVICE_UNAVAILABLE',
    title: 'Service unavailable',
    via: EVERYWHERE,
  },
  request_invalid: { status: 400, graphqlCode: 'REQUEST_INVALID', title: 'Malformed request', via: PROBLEM },
  headers_too_large: {
    status: 431,
    graphqlCode: 'HEADERS_TOO_LARGE',
    title: 'Request headers too large',
    via: PROBLEM,
  },
  not_found: { status: 404, graphqlCode: 'NOT_FOUND', title: 'Not found', via: EVERYWHERE },
  method_not_allowed: { status: 405, graphqlCode: 'METHOD_NOT_ALLOWED', title: 'Method not allowed', via: PROBLEM },
  // Refusals of the admin API's operations; the gateway never answers them.
  unauthenticated: { status: 401, graphqlCode: 'UNAUTHENTICATED', title: 'Authentication required', via: GRAPHQL },
  forbidden: { status: 403, graphqlCode: 'FORBIDDEN', title: 'Forbidden', via: GRAPHQL },
  bad_user_input: { status: 400, graphqlCode: 'BAD_USER_INPUT', title: 'Invalid input', via: GRAPHQL },
  // The password was right; `extensions.challenge` goes to `verifySecondFactor` with a code.
  second_factor_required: {
    status: 401,
    graphqlCode: 'SECOND_FACTOR_REQUIRED',
    title: 'Second factor required',
    via: GRAPHQL,
  },
  // The team requires a second factor and this member has none yet: only enrolment is open to them.
  second_factor_enrolment_required: {
    status: 403,
    graphqlCode: 'SECOND_FACTOR_ENROLMENT_REQUIRED',
    title: 'Second factor enrolment required',
    via: GRAPHQL,
  },
  // Anything that is not an AppError is answered as this, and says nothing about the fault.
  internal_error: {
    status: 500,
    graphqlCode: 'INTERNAL_SERVER_ERROR',
    title: 'Internal server error',
    via: EVERYWHERE,
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The codes clients meet on one transport, in catalogue order (the OpenAPI document lists the problem ones). */
export function codesAnsweredAs(transport: ErrorTransport): ErrorCode[] {
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) =>
    (ERROR_CATALOGUE[code].via as readonly ErrorTransport[]).includes(transport),
  );
}

/** One failing field of a `fields_invalid` refusal: where it is (a field path) and why. */
export interface FieldProblem {
  path: string;
  reason: string;
}

export interface AppErrorOptions {
  /** Seconds the client should wait before retrying (429 and 503). */
  retryAfter?: number;
  /** `fields_invalid`: every failing field; sent as the problem's `errors` member. */
  errors?: readonly FieldProblem[];
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
  /** The admin API's `extensions.code` for it. */
  readonly graphqlCode: string;
  readonly retryAfter?: number;
  readonly errors?: readonly FieldProblem[];

  constructor(code: ErrorCode, detail?: string, options: AppErrorOptions = {}) {
    const entry = ERROR_CATALOGUE[code];
    super(detail ?? entry.title, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = entry.status;
    this.title = entry.title;
    this.graphqlCode = entry.graphqlCode;
    if (options.retryAfter !== undefined) {
      this.retryAfter = options.retryAfter;
    }
    if (options.errors !== undefined) {
      this.errors = options.errors;
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
  /** RFC 9457 extension member of `fields_invalid`: each failing field by path, with the reason. */
  errors?: FieldProblem[];
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
    ...(appError.errors === undefined ? {} : { errors: appError.errors.map(({ path, reason }) => ({ path, reason })) }),
  };
}
