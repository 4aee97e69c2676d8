// The one catalogue of the errors a client may see: each code with its HTTP status, the
// `extensions.code` the admin API answers with, a fixed title, and where clients meet it. The
// gateway renders the `problem` ones as RFC 9457 problem details (docs/intake-api.md), the admin API
// the `graphql` ones (docs/admin-api.md). The kernel's AppError (shared/src/errors) is built from it,
// the client's refusal types and the console's error codes are derived from it: nothing restates it.

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
  // The form takes no submission now: before its opening, after its closing, or at its cap
  // (docs/submissions.md#caps-and-a-schedule); `reason`, `opensAt` or `closedAt` say which.
  form_closed: { status: 403, graphqlCode: 'FORM_CLOSED', title: 'Form closed', via: PROBLEM },
  // A browser post (docs/static-sites.md) from a page whose origin the form does not list.
  origin_not_allowed: { status: 403, graphqlCode: 'ORIGIN_NOT_ALLOWED', title: 'Origin not allowed', via: PROBLEM },
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
  // A change to how someone signs in (a new passkey, an API token…) from a sign-in older than a few
  // minutes: `confirmSignIn` with the password or a second factor first, then the same change again.
  recent_sign_in_required: {
    status: 403,
    graphqlCode: 'RECENT_SIGN_IN_REQUIRED',
    title: 'Recent sign-in required',
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

type Catalogue = typeof ERROR_CATALOGUE;

/** The codes clients meet on one transport. */
export type CodeAnsweredAs<T extends ErrorTransport> = {
  [C in ErrorCode]: T extends Catalogue[C]['via'][number] ? C : never;
}[ErrorCode];

/** Every `code` a problem document may carry (the client's `ProblemCode`). */
export type ProblemCode = CodeAnsweredAs<'problem'>;

/** Every `extensions.code` of the admin API's own refusals (Apollo's parse and validation codes aside). */
export type GraphQLErrorCode = Catalogue[CodeAnsweredAs<'graphql'>]['graphqlCode'];

/** The codes clients meet on one transport, in catalogue order (the OpenAPI document lists the problem ones). */
export function codesAnsweredAs<T extends ErrorTransport>(transport: T): CodeAnsweredAs<T>[] {
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code): code is CodeAnsweredAs<T> =>
    (ERROR_CATALOGUE[code].via as readonly ErrorTransport[]).includes(transport),
  );
}

/** The problem codes, in catalogue order. */
export const PROBLEM_CODES: readonly ProblemCode[] = Object.freeze(codesAnsweredAs('problem'));

/** The admin API's `extensions.code` values, in catalogue order. */
export const GRAPHQL_ERROR_CODES: readonly GraphQLErrorCode[] = Object.freeze(
  codesAnsweredAs('graphql').map((code): GraphQLErrorCode => ERROR_CATALOGUE[code].graphqlCode),
);

/** One failing field of a `fields_invalid` refusal: where it is (a field path) and why. */
export interface FieldProblem {
  path: string;
  reason: string;
}
