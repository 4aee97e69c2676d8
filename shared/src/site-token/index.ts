export { createSiteTokenCodec, type SiteTokenCodec, type SiteTokenCodecOptions } from './codec.js';
export type { SiteTokenClaims } from './claims.js';
export { SiteTokenError, isSiteTokenError, SITE_TOKEN_ERROR_REASONS, type SiteTokenErrorReason } from './errors.js';
export { verifySiteToken, type SiteRecord, type SiteTokenFailureReason, type SiteTokenVerification } from './verify.js';
export { generateControlCode, generateFormCode } from './codes.js';
export { isUuid } from './uuid.js';
