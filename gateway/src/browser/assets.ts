// The two scripts browsers load from the gateway (docs/static-sites.md): the ALTCHA widget and the
// form's enhancement, copied into dist/public/ by the build (scripts/copy-browser-assets.js) and
// read once at start. A missing copy is logged and answered 503 until a build makes it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BROWSER_PATHS } from '@intake/shared/browser-posting';
import { AppError } from '@intake/shared/errors';
import type { Logger } from '@intake/shared/logger';
import type { IntakeContext } from '../context.js';

/** gateway/dist/public/, from the compiled module and from its source alike. */
export const ASSETS_DIR = fileURLToPath(new URL('../../dist/public/', import.meta.url));

const FILES: Record<string, string> = {
  [BROWSER_PATHS.widget]: 'altcha.js',
  [BROWSER_PATHS.script]: 'intake-form.js',
};

interface Asset {
  body: Buffer;
  etag: string;
}

export interface BrowserAssets {
  serve(ctx: IntakeContext, path: string): void;
}

export function loadBrowserAssets(logger: Logger): BrowserAssets {
  const assets = new Map<string, Asset>();
  for (const [path, file] of Object.entries(FILES)) {
    try {
      const body = readFileSync(`${ASSETS_DIR}${file}`);
      assets.set(path, { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
    } catch {
      logger.error({ file }, 'browser assets: a script is missing from gateway/dist/public; run `npm run build`');
    }
  }
  return {
    serve(ctx, path) {
      const asset = assets.get(path);
      if (!asset) {
        throw new AppError('service_unavailable', 'This script is not built on this gateway.', { retryAfter: 60 });
      }
      ctx.set('ETag', asset.etag);
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.set('X-Content-Type-Options', 'nosniff');
      // Pages of other origins load it with <script>; a page isolated with COEP may too.
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      ctx.type = 'text/javascript; charset=utf-8';
      if (ctx.get('If-None-Match') === asset.etag) {
        ctx.status = 304;
        return;
      }
      ctx.body = asset.body;
    },
  };
}
