// The errors a client may see, as thrown: an AppError carries an entry of the one catalogue, which
// lives in @intake/contract (re-exported here) with each code's status, `extensions.code` and title.
// The gateway (and both services' HTTP parser refusals) render them as RFC 9457 problem details with
// `toProblem`; the admin API's `formatError` maps them to GraphQL errors. Anything that is not an
// AppError is an internal fault, masked as `internal_error`. The few Error subclasses local to their
// module never reach a client as they are: each becomes an AppError where it would.

import { ERROR_CATALOGUE, type ErrorCode, type FieldProblem, type FormClosedMembers } from '@intake/contract';

export {
  codesAnsweredAs,
  ERROR_CATALOGUE,
  type CodeAnsweredAs,
  type ErrorCode,
  type ErrorEntry,
  type ErrorTransport,
  type FieldProblem,
  FORM_CLOSED_REASONS,
  type FormClosedMembers,
  type ProblemCode,
} from '@intake/contract';

export interface AppErrorOptions {
  /** Seconds the client should wait before retrying (429 and 503). */
  retryAfter?: number;
  /** `fields_invalid`: every failing field; sent as the problem's `errors` member. */
  errors?: readonly FieldProblem[];
  /** `form_closed`: why, and when it opens or closed; sent as members of the problem. */
  closed?: FormClosedMembers;
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
  readonly closed?: FormClosedMembers;

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
    if (options.closed !== undefined) {
      this.closed = options.closed;
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
  /** Extension members of `form_closed`: `reason`, and `opensAt` or `closedAt`. */
  reason?: FormClosedMembers['reason'];
  opensAt?: string;
  closedAt?: string;
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
    ...(appError.closed === undefined ? {} : { ...appError.closed }),
  };
}
