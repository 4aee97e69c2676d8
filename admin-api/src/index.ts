// The admin API: GraphQL for administrators and integrators (CONTRACT.md §4). The process entry
// points (migrations, ensureAdmin, signals) live with the lead's main.ts.
export { buildAdminApp, createAdminApp, type AdminApp, type AdminAppOptions } from './app.js';
export { ensureAdmin, type EnsureAdminResult } from './auth/ensure-admin.js';
export { startAdmin, type AdminServer, type StartAdminOptions } from './server.js';
