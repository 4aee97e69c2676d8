// Why a site token was refused. Reasons are for logs and tests only: the gateway answers every one of
// them with the same 403 token_invalid, so a caller learns nothing about which check failed. That
// answer is the catalogue's (shared/src/errors.ts); this class only carries the reason to it.

export const SITE_TOKEN_ERROR_REASONS = ['malformed', 'signature', 'algorithm', 'payload', 'decrypt'] as const;

export type SiteTokenErrorReason = (typeof SITE_TOKEN_ERROR_REASONS)[number];

/** Thrown by `decode`. Its message holds the reason only, never the token nor any key. */
export class SiteTokenError extends Error {
  readonly reason: SiteTokenErrorReason;

  constructor(reason: SiteTokenErrorReason) {
    super(`Site token rejected: ${reason}`);
    this.name = 'SiteTokenError';
    this.reason = reason;
  }
}

export function isSiteTokenError(error: unknown): error is SiteTokenError {
  return error instanceof SiteTokenError;
}
