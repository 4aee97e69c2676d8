// GET /files/:id?expires=…&sig=… — the bytes of a stored file, for a signed download link. The
// signature and expiry are checked before anything is looked up (403), then the file row and the
// storage object (404). The answer is always an attachment that no browser renders or sniffs.
import { StoredFileSchema, SubmissionSchema } from '@intake/shared/entities';
import type { Services } from '@intake/shared/services';
import { isUuid } from '@intake/shared/site-token';
import type { AdminKoaContext } from '../koa-context.js';
import { setAttachment } from '../lib/content-disposition.js';
import type { DownloadLinks } from '../lib/download-link.js';
import { plainRefusal } from '../http/plain-refusal.js';

// type/subtype without parameters; anything else is served as opaque bytes.
const MIME_TYPE_SHAPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

export function downloadFile(services: Services, links: DownloadLinks) {
  return async (ctx: AdminKoaContext & { params: Record<string, string> }): Promise<void> => {
    const fileId = ctx.params.id ?? '';
    if (!links.verify(fileId, ctx.query.expires, ctx.query.sig)) {
      plainRefusal(ctx, 'forbidden');
      return;
    }
    if (!isUuid(fileId)) {
      plainRefusal(ctx, 'not_found');
      return;
    }
    const em = services.db.em.fork();
    const file = await em.findOne(StoredFileSchema, { id: fileId.toLowerCase() });
    // Rows of a deleted submission are gone with it; the second check keeps that true by design.
    const submissionExists = file !== null && (await em.count(SubmissionSchema, { id: file.submission.id })) > 0;
    const object = file !== null && submissionExists ? await services.storage.get(file.storageKey) : undefined;
    if (file === null || object === undefined) {
      plainRefusal(ctx, 'not_found');
      return;
    }
    ctx.body = object.stream;
    ctx.length = object.size;
    ctx.set('Content-Type', MIME_TYPE_SHAPE.test(file.mimeType) ? file.mimeType : 'application/octet-stream');
    setAttachment(ctx, file.name);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  };
}
