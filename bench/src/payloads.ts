// The request bodies of the bench, built once in memory: the same bytes go to Intake and to its
// ceilings, so a ratio compares like with like.
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { pdf } from '@intake/test-files';

export interface Payload {
  contentType: string;
  body: Buffer;
}

function json(value: unknown): Payload {
  return { contentType: 'application/json', body: Buffer.from(JSON.stringify(value)) };
}

/** Three plain fields, as a contact form sends them: no character the sanitiser must touch. */
export const PLAIN_FIELDS = json({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello, I would like to hear more about the analytical engine. Could you call me back next week?',
});

/** Three fields carrying HTML: each goes through the DOMPurify pass. */
export const HTML_FIELDS = json({
  name: '<b>Ada</b> <i>Lovelace</i>',
  email: 'ada@example.com <script>alert(1)</script>',
  message:
    '<p>Hello <a href="javascript:alert(1)">there</a>,<br><img src=x onerror=alert(1)> call me <em>back</em>.</p>',
});

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real RGB PNG of noise (incompressible, like a photo), about `bytes` long. */
export function noisePng(bytes: number): Buffer {
  const side = Math.ceil(Math.sqrt(bytes / 3));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows: Buffer[] = [];
  for (let y = 0; y < side; y++) {
    rows.push(Buffer.from([0]), randomBytes(side * 3));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** multipart/form-data with a name field and one file. */
export function multipart(file: { name: string; type: string; bytes: Buffer }): Payload {
  const boundary = `----intake-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda Lovelace\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="fichier"; filename="${file.name}"\r\n` +
      `Content-Type: ${file.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([head, file.bytes, tail]),
  };
}

export function pngUpload(): Payload {
  return multipart({ name: 'photo.png', type: 'image/png', bytes: noisePng(100 * 1024) });
}

export function pdfUpload(): Payload {
  return multipart({ name: 'report.pdf', type: 'application/pdf', bytes: pdf(10 * 1024 * 1024) });
}
