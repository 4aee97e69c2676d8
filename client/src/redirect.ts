// A redirect answered to a request that carries credentials. The client never follows one (fetch with
// `redirect: 'manual'`): fetch would resend the API key and the submission to wherever Location
// points (it drops only Authorization, and only across origins), and the gateway never redirects.

/** Thrown when the gateway URL answers with a redirect (3xx): nothing was sent to its Location. */
export class IntakeRedirectError extends Error {
  /** The HTTP status (301, 302, 303, 307, 308, …). */
  readonly status: number;
  /** The origin the Location header names (never its path or query); undefined without a readable one. */
  readonly location?: string;
  /** How many requests were made (a redirect is not retried). */
  readonly attempts: number;

  constructor(status: number, location: string | undefined, attempts: number) {
    const where = location === undefined ? 'without a usable Location' : `to ${location}`;
    super(
      `The gateway answered ${status} redirecting ${where}; not followed: the API key, the site token and the submission go only to the configured URL.`,
    );
    this.name = 'IntakeRedirectError';
    this.status = status;
    if (location !== undefined) {
      this.location = location;
    }
    this.attempts = attempts;
  }
}

export function isRedirect(response: Response): boolean {
  return response.status >= 300 && response.status < 400;
}

/** The error for a redirect answer; the answer's body is discarded, the Location cut to its origin. */
export async function redirectError(
  response: Response,
  requested: URL,
  attempts: number,
): Promise<IntakeRedirectError> {
  await response.body?.cancel();
  const header = response.headers.get('Location');
  let location: string | undefined;
  try {
    const target = new URL(header ?? '', requested);
    // A scheme without an origin (data:, mailto:) is named by the scheme alone.
    location = header ? (target.origin === 'null' ? target.protocol : target.origin) : undefined;
  } catch {
    location = undefined; // Not a URL: fetch could not have followed it either.
  }
  return new IntakeRedirectError(response.status, location, attempts);
}
