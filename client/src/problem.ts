// The gateway's refusals as a typed error. The codes are the one catalogue's (@intake/contract,
// bundled into this package as `#contract`, so the installed client needs nothing else).
import {
  FORM_CLOSED_REASONS,
  PROBLEM_CODES,
  type FieldProblem,
  type FormClosedMembers,
  type ProblemCode,
} from '#contract';

export { PROBLEM_CODES, type FieldProblem, type FormClosedMembers, type ProblemCode };

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
  /** `form_closed`: why (`reason`), and `opensAt` or `closedAt` when the schedule says. */
  readonly closed?: FormClosedMembers;
  /** Seconds from `Retry-After` (429 and 503), when sent. */
  readonly retryAfter?: number;
  /** How many requests were made before giving up (1 when the refusal was final). */
  readonly attempts: number;

  constructor(
    problem: {
      status: number;
      code: string;
      title?: string;
      detail?: string;
      errors?: readonly FieldProblem[];
      closed?: FormClosedMembers;
    },
    options: { retryAfter?: number; attempts?: number } = {},
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title ?? ''}`.trim());
    this.name = 'IntakeProblem';
    this.status = problem.status;
    this.code = problem.code as ProblemCode;
    this.title = problem.title ?? '';
    this.detail = problem.detail ?? '';
    this.errors = problem.errors ?? [];
    if (problem.closed !== undefined) {
      this.closed = problem.closed;
    }
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

/**
 * Why an answer carries no problem document: the `url` is another service (the admin API answers
 * `404 Not Found` in plain text), or a proxy in front of the gateway failed. Names the setting to check.
 */
function notFromTheGateway(status: number, requested: URL | undefined): string {
  const who = requested ? `${requested.origin} answered ${status}` : `The answer ${status} came`;
  const proxy = status >= 500 ? ' (or a proxy in front of the gateway failed)' : '';
  return `${who} without the gateway's problem details${proxy}: check the client's url (INTAKE_GATEWAY_URL in the documented examples); it must be the gateway's address, not the admin API's.`;
}

/** Reads a refusal's body into an IntakeProblem; a body that is not a problem document still gives one. */
export async function problemOf(
  response: Response,
  attempts: number,
  retryAfter?: number,
  requested?: URL,
): Promise<IntakeProblem> {
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
  const fromGateway = text(body.code) !== undefined;
  const errors = Array.isArray(body.errors)
    ? body.errors
        .filter((entry): entry is FieldProblem => typeof entry?.path === 'string' && typeof entry?.reason === 'string')
        .map(({ path, reason }) => ({ path, reason }))
    : [];
  const reason = (FORM_CLOSED_REASONS as readonly unknown[]).includes(body.reason)
    ? (body.reason as FormClosedMembers['reason'])
    : undefined;
  const opensAt = text(body.opensAt);
  const closedAt = text(body.closedAt);
  const closed: FormClosedMembers | undefined =
    body.code === 'form_closed' && reason !== undefined
      ? { reason, ...(opensAt === undefined ? {} : { opensAt }), ...(closedAt === undefined ? {} : { closedAt }) }
      : undefined;
  return new IntakeProblem(
    {
      status: response.status,
      code: text(body.code) ?? (response.status >= 500 ? 'internal_error' : 'request_invalid'),
      title: text(body.title) ?? response.statusText,
      detail: fromGateway ? (text(body.detail) ?? '') : notFromTheGateway(response.status, requested),
      errors,
      ...(closed === undefined ? {} : { closed }),
    },
    { retryAfter, attempts },
  );
}
