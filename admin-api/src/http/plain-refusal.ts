import { ERROR_CATALOGUE, type ErrorCode } from '@intake/shared/errors';
import type { AdminKoaContext } from '../koa-context.js';

/**
 * A refusal of a download route (a file, an export) as short plain text: the catalogue entry's
 * status and title. A download link is opened by a browser, which shows the text as it is.
 */
export function plainRefusal(ctx: AdminKoaContext, code: ErrorCode): void {
  const entry = ERROR_CATALOGUE[code];
  ctx.status = entry.status;
  ctx.type = 'text/plain';
  ctx.body = entry.title;
}
