// The admin API: GraphQL for administrators and integrators (docs/admin-api.md). The process entry
// points (`main.ts` here, `scripts/start.js`) run migrations, ensureAdmin and the signal handling.
export { buildAdminApp, createAdminApp, type AdminApp, type AdminAppOptions } from './app.js';
export { ensureAdmin, type EnsureAdminResult } from './team/members/ensure-admin.js';
export { startAdmin, type AdminServer, type StartAdminOptions } from './server.js';
