// The web console (the built `admin-web/dist`) at `/` on the admin port, same origin as /graphql.
// Any GET that is not an API route answers a file of the build or, for a path without one,
// index.html, so a deep link such as /sites/<id>/forms/<id> reloads into the same page (the
// console's router reads the path). Files are sent by @koa/send, which resolves paths under the
// root only and refuses dot-files.
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { send } from '@koa/send';
import type { Next } from 'koa';
import type { AdminKoaContext } from '../koa-context.js';

/** Where the root `npm run build` writes the console, from this file in src/ or dist/. */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../../admin-web/dist/', import.meta.url));

// Scripts and styles only from this origin; Mantine sets inline style attributes and one style
// element, hence 'unsafe-inline' for styles only. Nothing may frame the console.
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The route label of the console's files and pages: logged at debug, not as `unmatched` at info. */
export const CONSOLE_ROUTE = 'console';

const API_PATHS = /^\/(graphql|files|healthz|readyz|metrics|events)(\/|$)/;
// Vite names built assets by content hash: a changed file gets a new name, so they may be cached.
const HASHED_ASSETS = /^\/assets\//;

export function serveConsole(root = DEFAULT_CONSOLE_DIR) {
  return async (ctx: AdminKoaContext, next: Next): Promise<void> => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || API_PATHS.test(ctx.path)) {
      await next();
      return;
    }
    ctx.state.route = CONSOLE_ROUTE;
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    if (!(await isDirectory(root))) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The console is not built: run `npm run build`.\n';
      return;
    }
    if (!/\.[a-z0-9]+$/i.test(ctx.path)) {
      await send(ctx, 'index.html', { root });
      return;
    }
    try {
      await send(ctx, ctx.path, { root });
    } catch (error) {
      // A missing file is a 404, not the page: a script URL answered with HTML would only confuse.
      const status = (error as { status?: unknown }).status;
      if (status === 404 || status === 400 || status === 403) {
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = 'Not found\n';
        return;
      }
      throw error;
    }
    if (HASHED_ASSETS.test(ctx.path)) {
      // Replaces the admin's default no-store: the name changes whenever the content does.
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    }
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
