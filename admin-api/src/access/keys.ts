// Keys derived from JWT_SECRET with HKDF, one per purpose: a site token (signed with JWT_SECRET
// itself) can never pass as an admin token, and a download signature is worth nothing elsewhere.
export { DOWNLOAD_KEY_INFO, deriveKey } from '@intake/shared/download-links';

export const ADMIN_TOKEN_KEY_INFO = 'intake admin token';
