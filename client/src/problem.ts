// The gateway's refusals as a typed error. The codes are the documented list of docs/intake-api.md
// (a test holds this list equal to the service's error catalogue); the client depends on nothing of
// the service, so the list is written out here.

/** Every `code` a problem document of `POST /api/v1/send/:code` may carry, and the routes around it. */
export const PROBLEM_CODES = [
  'api_key_missing',
  'api_key_invalid',
  'token_missing',
  'token_invalid',
  'form_forbidden',
  'unsupported_media_type',
  'payload_too_large',
  'body_timeout',
  'body_invalid',
  'fields_invalid',
  'captcha_invalid',
  'file_type_not_allowed',
  'file_type_mismatch',
  'archive_bomb',
  'archive_macro',
  'archive_executable',
  'archive_path_traversal',
  'archive_unreadable',
  'document_active_content',
  'file_infected',
  'rate_limited',
  'scanner_unavailable',
  'captcha_unavailable',
  'service_unavailable',
  'request_invalid',
  'headers_too_large',
  'not_found',
  'method_not_allowed',
  'internal_error',
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** One failing field of a `fields_invalid` refusal: its path (`email`, `tags[2]`) and why. */
export interface FieldProblem {
  path: string;
  reason: string;
}

/** An answer of the gateway that is not `201`: RFC 9457 problem details. */
export class IntakeProblem extends Error {
  /** The HTTP status (400, 403, 413, 429, 503, …). */
  readonly status: number;
  /**
   * The stable code to branch on. A code this version does not know (a newer gateway) is kept as
   * sent; `known` says whether it is one of PROBLEM_CODES.
   */
  readonly code: ProblemCode;
  readonly title: string;
  /** A sentence for people; never holds a submitted value. */
  readonly detail: string;
  /** `fields_invalid`: every failing field. Empty for the other codes. */
  readonly errors: readonly FieldProblem[];
  /** Seconds from `Retry-After` (429 and 503), when sent. */
  readonly retryAfter?: number;
  /** How many requests were made before giving up (1 when the refusal was final). */
  readonly attempts: number;

  constructor(
    problem: { status: number; code: string; title?: string; detail?: string; errors?: readonly FieldProblem[] },
    options: { retryAfter?: number; attempts?: number } = {},
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title ?? ''}`.trim());
    this.name = 'IntakeProblem';
    this.status = problem.status;
    this.code = problem.code as ProblemCode;
    this.title = problem.title ?? '';
    this.detail = problem.detail ?? '';
    this.errors = problem.errors ?? [];
    if (options.retryAfter !== undefined) {
      this.retryAfter = options.retryAfter;
    }
    this.attempts = options.attempts ?? 1;
  }

  /** Whether the code is one this version of the client documents. */
  get known(): boolean {
    return (PROBLEM_CODES as readonly string[]).includes(this.code);
  }
}

/** Reads a refusal's body into an IntakeProblem; a body that is not a problem document still gives one. */
export async function problemOf(response: Response, attempts: number, retryAfter?: number): Promise<IntakeProblem> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      body = parsed as Record<string, unknown>;
    }
  } catch {
    // A proxy's HTML error page: the status alone says what happened.
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const errors = Array.isArray(body.errors)
    ? body.errors
        .filter((entry): entry is FieldProblem => typeof entry?.path === 'string' && typeof entry?.reason === 'string')
        .map(({ path, reason }) => ({ path, reason }))
    : [];
  return new IntakeProblem(
    {
      status: response.status,
      code: text(body.code) ?? (response.status >= 500 ? 'internal_error' : 'request_invalid'),
      title: text(body.title) ?? response.statusText,
      detail: text(body.detail) ?? '',
      errors,
    },
    { retryAfter, attempts },
  );
}
