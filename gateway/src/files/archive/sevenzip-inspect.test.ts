import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { crc32, gzipSync } from 'node:zlib';
import { isAppError } from '@intake/shared/errors';
import { MIME_7Z, MIME_RAR } from '@intake/shared/mime-types';
import {
  docm,
  msiOle2,
  packagedObjectOle2,
  plainOle2,
  vbaProjectOle2,
  docx,
  makeSampleDir,
  minimalRarSignatureFile,
  removeSampleDir,
  sevenZip,
  writeSample,
  zipOf,
} from '@intake/test-files';
import { iso9660, v7Tar } from '../../test/disk-images.js';
import { buildRar, buildRar4, RAR4_HOST_UNIX, RAR_HOST_UNIX } from '../../test/rar-writer.js';
import type { RarEntry } from '../../test/rar-writer.js';
import { renameEntry, sevenZipOf } from '../../test/sevenzip-samples.js';
import type { SampleEntry, SevenZipSampleOptions } from '../../test/sevenzip-samples.js';
import type { ArchiveLimits } from '../types.js';
import { DEFAULT_ARCHIVE_LIMITS } from './budget.js';
import { inspectSevenZip } from './inspect-sevenzip.js';
import { inspectZipBuffer } from './inspect-zip.js';
import type { SevenZipInspectOptions } from './inspect-sevenzip.js';
import { closeSevenZipPool, SevenZipPool } from './sevenzip-pool.js';

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await makeSampleDir();
});

afterAll(async () => {
  await closeSevenZipPool();
  await removeSampleDir(dir);
});

/** The contract code an upload gets, or `ok`. */
async function verdict(
  bytes: Buffer,
  mimeType: string = MIME_7Z,
  limits: Partial<ArchiveLimits> = {},
  options: Partial<SevenZipInspectOptions> = {},
): Promise<string> {
  counter += 1;
  const path = await writeSample(dir, `upload-${counter}`, bytes);
  try {
    await inspectSevenZip(
      path,
      mimeType,
      { ...DEFAULT_ARCHIVE_LIMITS, ...limits },
      { inspectZip: inspectZipBuffer, ...options },
    );
    return 'ok';
  } catch (error) {
    if (isAppError(error)) {
      return error.code;
    }
    throw error;
  }
}

function sevenZ(entries: SampleEntry[], options?: SevenZipSampleOptions): Promise<Buffer> {
  return sevenZipOf(entries, options);
}

const TEXT = 'Quarterly figures, nothing to see here.\n';
const MZ = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(120, 0x41)]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(60)]);

/** A 7z whose header is edited to hold `name` (7-Zip would not write it itself). */
async function sevenZNamed(name: string): Promise<Buffer> {
  const placeholder = 'p'.repeat(name.length);
  return renameEntry(await sevenZ([{ name: placeholder, data: TEXT }], { plainHeader: true }), placeholder, name);
}

/** Sets the LZMA2 dictionary-size byte of a plain-header 7z (40 = 4 GiB), fixing the CRCs. */
function withDictionaryProperty(archive: Buffer, property: number): Buffer {
  const result = Buffer.from(archive);
  const start = 32 + Number(result.readBigUInt64LE(12));
  const header = result.subarray(start, start + Number(result.readBigUInt64LE(20)));
  // Coder record: flags 0x21 (1-byte id, has properties), id 0x21 (LZMA2), 1 property byte.
  const at = header.indexOf(Buffer.from([0x21, 0x21, 0x01]));
  if (at < 0) {
    throw new Error('no LZMA2 coder in the header');
  }
  header[at + 3] = property;
  result.writeUInt32LE(crc32(header), 28);
  result.writeUInt32LE(crc32(result.subarray(12, 32)), 8);
  return result;
}

describe('inspectSevenZip — 7z', () => {
  it('passes clean archives: folders, solid and not, stored, and the empty archive', async () => {
    const entries = [
      { name: 'report/summary.txt', data: TEXT },
      { name: 'report/data.csv', data: 'a,b\n1,2\n' },
      { name: 'readme.md', data: '# Hello\n' },
    ];
    expect(await verdict(await sevenZ(entries, { solid: true }))).toBe('ok');
    expect(await verdict(await sevenZ(entries, { solid: false }))).toBe('ok');
    expect(await verdict(await sevenZ(entries, { level: 0 }))).toBe('ok');
    expect(await verdict(sevenZip())).toBe('ok');
  });

  it('refuses an executable by name', async () => {
    expect(await verdict(await sevenZ([{ name: 'invoice.exe', data: TEXT }]))).toBe('archive_executable');
    expect(await verdict(await sevenZ([{ name: 'docs/run.ps1', data: TEXT }]))).toBe('archive_executable');
  });

  it('refuses an executable by magic bytes under an innocent name, inside a solid block too', async () => {
    expect(await verdict(await sevenZ([{ name: 'notes.txt', data: MZ }]))).toBe('archive_executable');
    const solid = [
      { name: 'a.txt', data: TEXT },
      { name: 'b.txt', data: ELF },
      { name: 'c.txt', data: TEXT },
    ];
    expect(await verdict(await sevenZ(solid, { solid: true }))).toBe('archive_executable');
  });

  it('refuses a macro-enabled document by name', async () => {
    expect(await verdict(await sevenZ([{ name: 'budget.xlsm', data: TEXT }]))).toBe('archive_macro');
  });

  it.each(['../evil.txt', 'a/../../evil.txt', '/etc/evil.txt', 'C:\\evil.txt', 'dir\\evil.txt'])(
    'refuses the unsafe path %j',
    async (name) => {
      expect(await verdict(await sevenZNamed(name))).toBe('archive_path_traversal');
    },
  );

  it('refuses a symbolic link', async () => {
    const archive = await sevenZ([
      { name: 'a.txt', data: TEXT },
      { name: 'passwd', symlinkTarget: '/etc/passwd' },
    ]);
    expect(await verdict(archive)).toBe('archive_path_traversal');
  });

  it('refuses encrypted data and encrypted headers as unreadable', async () => {
    const entries = [{ name: 'a.txt', data: TEXT }];
    expect(await verdict(await sevenZ(entries, { password: 'secret' }))).toBe('archive_unreadable');
    expect(await verdict(await sevenZ(entries, { password: 'secret', encryptHeaders: true }))).toBe(
      'archive_unreadable',
    );
  });

  it('refuses truncated archives, trailing data and a 7z signature over random bytes', async () => {
    const archive = await sevenZ([{ name: 'a.txt', data: randomBytes(4096) }]);
    expect(await verdict(archive.subarray(0, archive.length - 20))).toBe('archive_unreadable');
    expect(await verdict(archive.subarray(0, 100))).toBe('archive_unreadable');
    expect(await verdict(Buffer.concat([archive, Buffer.from('trailing bytes')]))).toBe('archive_unreadable');
  });

  it('refuses random header bytes fast, and the next archive is inspected normally', async () => {
    const signature = Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04]);
    // Random bytes behind a valid start header (CRCs right), so 7-Zip really parses them as a header.
    const parsedGarbage = (): Buffer => {
      const header = randomBytes(64 + Math.floor(Math.random() * 2048));
      header[0] = Math.random() < 0.5 ? 0x01 : 0x17; // kHeader or kEncodedHeader
      const start = Buffer.alloc(20);
      start.writeBigUInt64LE(0n, 0);
      start.writeBigUInt64LE(BigInt(header.length), 8);
      start.writeUInt32LE(crc32(header), 16);
      const startCrc = Buffer.alloc(4);
      startCrc.writeUInt32LE(crc32(start));
      return Buffer.concat([signature, startCrc, start, header]);
    };
    for (let i = 0; i < 10; i += 1) {
      const garbage = i % 2 === 0 ? parsedGarbage() : Buffer.concat([signature, randomBytes(2048)]);
      const started = Date.now();
      expect(await verdict(garbage, MIME_7Z, {}, { timeoutMs: 3000 })).toBe('archive_unreadable');
      expect(Date.now() - started).toBeLessThan(3000);
    }
    expect(await verdict(await sevenZ([{ name: 'a.txt', data: TEXT }]))).toBe('ok');
  });

  it('refuses data whose compressed data is damaged (CRC)', async () => {
    const archive = await sevenZ([{ name: 'a.bin', data: randomBytes(8192) }], { level: 0 });
    const damaged = Buffer.from(archive);
    damaged[100] = (damaged[100] ?? 0) ^ 0xff;
    expect(await verdict(damaged)).toBe('archive_unreadable');
  });

  it('refuses more entries than allowed, and accepts exactly the limit', async () => {
    const entries = Array.from({ length: 20 }, (_, i) => ({ name: `f${i}.txt`, data: `${i}\n` }));
    expect(await verdict(await sevenZ(entries), MIME_7Z, { maxEntries: 20 })).toBe('ok');
    expect(await verdict(await sevenZ(entries), MIME_7Z, { maxEntries: 19 })).toBe('archive_bomb');
  });

  it('refuses a compression ratio beyond the limit', async () => {
    expect(await verdict(await sevenZ([{ name: 'zeros.bin', data: new Uint8Array(3 * 1024 * 1024) }]))).toBe(
      'archive_bomb',
    );
  });

  it('refuses a total declared size beyond the limit', async () => {
    const archive = await sevenZ([
      { name: 'a.bin', data: randomBytes(600 * 1024) },
      { name: 'b.bin', data: randomBytes(600 * 1024) },
    ]);
    expect(await verdict(archive, MIME_7Z, { maxTotalUncompressedBytes: 1024 * 1024 })).toBe('archive_bomb');
    expect(await verdict(archive, MIME_7Z, { maxTotalUncompressedBytes: 2 * 1024 * 1024 })).toBe('ok');
  });

  it('refuses an archive that is really a RAR', async () => {
    expect(await verdict(buildRar([{ name: 'a.txt', data: Buffer.from(TEXT) }]), MIME_7Z)).toBe('archive_unreadable');
  });

  it('refuses a dictionary beyond the worker heap cap, then carries on', async () => {
    const archive = await sevenZ([{ name: 'a.txt', data: TEXT }], { plainHeader: true });
    expect(await verdict(withDictionaryProperty(archive, 36))).toBe('archive_unreadable'); // 1 GiB
    expect(await verdict(withDictionaryProperty(archive, 27))).toBe('ok'); // 48 MiB fits
    expect(await verdict(archive)).toBe('ok');
  });
});

describe('inspectSevenZip — nested archives', () => {
  it('opens a 7z inside a 7z and judges its entries', async () => {
    const clean = await sevenZ([{ name: 'inner.txt', data: TEXT }]);
    expect(await verdict(await sevenZ([{ name: 'inner.7z', data: clean }]))).toBe('ok');
    const evil = await sevenZ([{ name: 'tool.exe', data: TEXT }]);
    expect(await verdict(await sevenZ([{ name: 'inner.7z', data: evil }]))).toBe('archive_executable');
    // The name does not matter: the bytes say 7z.
    expect(await verdict(await sevenZ([{ name: 'photo.jpg', data: evil }]))).toBe('archive_executable');
  });

  it('opens a ZIP inside a 7z with the ZIP inspector', async () => {
    expect(await verdict(await sevenZ([{ name: 'inner.zip', data: await zipOf({ 'a.txt': TEXT }) }]))).toBe('ok');
    const evil = await zipOf({ 'setup.txt': MZ });
    expect(await verdict(await sevenZ([{ name: 'inner.zip', data: evil }]))).toBe('archive_executable');
  });

  it('opens a RAR inside a 7z, and a tar and a gzip', async () => {
    const rar = buildRar([{ name: '../evil', data: Buffer.from(TEXT) }]);
    expect(await verdict(await sevenZ([{ name: 'inner.rar', data: rar }]))).toBe('archive_path_traversal');
    const tar = await sevenZ([{ name: 'run.sh', data: '#!/bin/sh\n' }], { format: 'tar' });
    expect(await verdict(await sevenZ([{ name: 'inner.tar', data: tar }]))).toBe('archive_executable');
    const gzip = await sevenZ([{ name: 'x.txt', data: MZ }], { format: 'gzip' });
    expect(await verdict(await sevenZ([{ name: 'x.txt.gz', data: gzip }]))).toBe('archive_executable');
  });

  it('opens a tar without a ustar marker and an ISO image by name or checksum, refusing their programs', async () => {
    const program = [{ name: 'notes.txt', data: MZ }];
    expect(await verdict(await sevenZ([{ name: 'backup.tar', data: v7Tar(program) }]))).toBe('archive_executable');
    expect(await verdict(await sevenZ([{ name: 'backup.bin', data: v7Tar(program) }]))).toBe('archive_executable');
    expect(await verdict(await sevenZ([{ name: 'disk.iso', data: iso9660(program) }]))).toBe('archive_executable');
    expect(await verdict(await sevenZ([{ name: 'disk.udf', data: 'not an image' }]))).toBe('archive_unreadable');
    const clean = [{ name: 'notes.txt', data: TEXT }];
    expect(await verdict(await sevenZ([{ name: 'disk.iso', data: iso9660(clean) }]))).toBe('ok');
  });

  it('stops a nested stream that expands beyond its declared size', async () => {
    const gzip = gzipSync(Buffer.alloc(2 * 1024 * 1024));
    gzip.writeUInt32LE(10, gzip.length - 4); // ISIZE: "10 bytes"
    expect(await verdict(await sevenZ([{ name: 'data.gz', data: gzip }]))).toBe('archive_bomb');
    const honest = gzipSync(Buffer.from(TEXT));
    expect(await verdict(await sevenZ([{ name: 'data.gz', data: honest }]))).toBe('ok');
  });

  it('refuses nesting beyond the depth, by bytes and by name', async () => {
    const level3 = await sevenZ([{ name: 'deep.txt', data: TEXT }]);
    const level2 = await sevenZ([{ name: 'level3.7z', data: level3 }]);
    const level1 = await sevenZ([{ name: 'level2.7z', data: level2 }]);
    expect(await verdict(level1, MIME_7Z, { maxNestingDepth: 3 })).toBe('ok');
    expect(await verdict(level1, MIME_7Z, { maxNestingDepth: 2 })).toBe('archive_bomb');
    // Not an archive inside, but named like one: still a level deeper.
    expect(await verdict(await sevenZ([{ name: 'inner.7z', data: TEXT }]), MIME_7Z, { maxNestingDepth: 1 })).toBe(
      'archive_bomb',
    );
  });

  it('charges nested archives to the same budget', async () => {
    const inner = await sevenZ(Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, data: TEXT })));
    const outer = await sevenZ([
      { name: 'inner.7z', data: inner },
      { name: 'x.txt', data: TEXT },
    ]);
    expect(await verdict(outer, MIME_7Z, { maxEntries: 8 })).toBe('ok');
    expect(await verdict(outer, MIME_7Z, { maxEntries: 7 })).toBe('archive_bomb');
  });
});

describe('inspectSevenZip — documents inside', () => {
  it('judges OLE2 documents with the OLE2 checks', async () => {
    expect(await verdict(await sevenZ([{ name: 'letter.doc', data: plainOle2() }]))).toBe('ok');
    expect(await verdict(await sevenZ([{ name: 'letter.doc', data: vbaProjectOle2() }]))).toBe('archive_macro');
    expect(await verdict(await sevenZ([{ name: 'image.png', data: msiOle2() }]))).toBe('archive_executable');
    const packaged = packagedObjectOle2('invoice.pdf', MZ);
    expect(await verdict(await sevenZ([{ name: 'object.bin', data: packaged }]))).toBe('archive_executable');
  });

  it('judges OOXML documents with the ZIP inspector, macros included', async () => {
    expect(await verdict(await sevenZ([{ name: 'letter.docx', data: await docx() }]))).toBe('ok');
    expect(await verdict(await sevenZ([{ name: 'letter.docx', data: await docm() }]))).toBe('archive_macro');
  });
});

describe('inspectSevenZip — RAR', () => {
  const text = Buffer.from(TEXT);

  async function rar(entries: RarEntry[]): Promise<string> {
    return verdict(buildRar(entries), MIME_RAR);
  }

  it('passes a clean RAR 5 archive, and the empty one', async () => {
    expect(
      await rar([
        { name: 'docs', directory: true },
        { name: 'docs/a.txt', data: text },
        { name: 'b.txt', data: text, hostOs: RAR_HOST_UNIX },
      ]),
    ).toBe('ok');
    expect(await verdict(minimalRarSignatureFile(), MIME_RAR)).toBe('ok');
  });

  it.each(['../evil', 'docs/../../evil', '/abs', 'C:\\x', 'C:x', 'a\\b', '..'])(
    'refuses the unsafe path %j',
    async (name) => {
      expect(await rar([{ name, data: text }])).toBe('archive_path_traversal');
    },
  );

  it('refuses Unix symlinks and Windows reparse points', async () => {
    expect(await rar([{ name: 'link', symlinkTarget: '/etc/passwd', hostOs: RAR_HOST_UNIX }])).toBe(
      'archive_path_traversal',
    );
    expect(await rar([{ name: 'link', symlinkTarget: 'a.txt', hostOs: RAR_HOST_UNIX }])).toBe('archive_path_traversal');
    expect(await rar([{ name: 'junction', data: text, attributes: 0x420 }])).toBe('archive_path_traversal');
  });

  it('refuses a RAR 4 Unix symlink, whose mode 7-Zip does not list, and passes its plain Unix files', async () => {
    const rar4 = (entries: Parameters<typeof buildRar4>[0]): Promise<string> => verdict(buildRar4(entries), MIME_RAR);
    const plain = [
      { name: 'docs', directory: true, hostOs: RAR4_HOST_UNIX },
      { name: 'docs/a.txt', data: text, hostOs: RAR4_HOST_UNIX },
      { name: 'b.txt', data: text },
    ];
    expect(await rar4(plain)).toBe('ok');
    // As libarchive's test_read_format_rar.rar: a file, then a link to it, archived on Unix.
    expect(await rar4([...plain, { name: 'testlink', symlinkTarget: 'docs/a.txt' }])).toBe('archive_path_traversal');
    expect(await rar4([{ name: 'passwd', symlinkTarget: '/etc/passwd' }])).toBe('archive_path_traversal');
    expect(await rar4([{ name: 'junction', data: text, attributes: 0x420 }])).toBe('archive_path_traversal');
  });

  it('refuses an encrypted entry as unreadable', async () => {
    expect(await rar([{ name: 'a.txt', data: text, encrypted: true }])).toBe('archive_unreadable');
  });

  it('refuses executables by name and by magic', async () => {
    expect(await rar([{ name: 'setup.EXE', data: text }])).toBe('archive_executable');
    expect(await rar([{ name: 'photo.jpg', data: MZ }])).toBe('archive_executable');
    expect(await rar([{ name: 'notes', data: Buffer.from('#!/bin/sh\nrm -rf ~\n') }])).toBe('archive_executable');
  });

  it('reads control characters in names as 7-Zip prints them, without breaking the listing', async () => {
    expect(await rar([{ name: 'a\nb.exe', data: text }])).toBe('archive_executable');
    expect(await rar([{ name: 'x.txt\n\nPath = y.txt\nSize = 1', data: text }])).toBe('ok');
  });

  it('refuses a declared size beyond the limits', async () => {
    expect(await rar([{ name: 'a.txt', data: text, unpackedSize: 5_000_000_000 }])).toBe('archive_bomb');
  });

  it('refuses a truncated archive and a lying size as unreadable', async () => {
    const archive = buildRar([{ name: 'a.bin', data: randomBytes(2000) }]);
    expect(await verdict(archive.subarray(0, 1000), MIME_RAR)).toBe('archive_unreadable');
    // 7-Zip stops at the declared size: the rest of the data is an error, not extra output.
    expect(await rar([{ name: 'a.txt', data: text, unpackedSize: 4 }])).toBe('archive_unreadable');
  });

  it('refuses a 7z labelled as RAR', async () => {
    expect(await verdict(await sevenZ([{ name: 'a.txt', data: TEXT }]), MIME_RAR)).toBe('archive_unreadable');
  });
});

describe('inspectSevenZip — worker failures', () => {
  it('refuses as unreadable when the inspection times out, and the next one works', async () => {
    // A cold pool: starting its worker alone takes longer than the deadline.
    const pool = new SevenZipPool();
    try {
      const archive = await sevenZ([{ name: 'a.txt', data: TEXT }]);
      expect(await verdict(archive, MIME_7Z, {}, { pool, timeoutMs: 5 })).toBe('archive_unreadable');
      expect(pool.size).toBe(0);
      expect(await verdict(archive, MIME_7Z, {}, { pool })).toBe('ok');
    } finally {
      await pool.close();
    }
  });

  it('refuses as unreadable when the worker cannot get the memory it needs', async () => {
    const pool = new SevenZipPool({ maxWasmHeapBytes: 24 * 1024 * 1024 });
    try {
      const archive = await sevenZ([{ name: 'a.txt', data: TEXT }], { plainHeader: true });
      expect(await verdict(withDictionaryProperty(archive, 27), MIME_7Z, {}, { pool })).toBe('archive_unreadable'); // 48 MiB
      expect(await verdict(archive, MIME_7Z, {}, { pool })).toBe('ok');
    } finally {
      await pool.close();
    }
  });

  it('serves concurrent inspections with a single worker', async () => {
    const pool = new SevenZipPool({ maxWorkers: 1 });
    try {
      const clean = await sevenZ([{ name: 'a.txt', data: TEXT }]);
      const evil = await sevenZ([{ name: 'a.exe', data: TEXT }]);
      const garbage = Buffer.concat([clean.subarray(0, 12), randomBytes(200)]);
      const results = await Promise.all(
        [clean, evil, garbage, clean].map((bytes) => verdict(bytes, MIME_7Z, {}, { pool })),
      );
      expect(results).toEqual(['ok', 'archive_executable', 'archive_unreadable', 'ok']);
    } finally {
      await pool.close();
    }
  });

  it('refuses a MIME type it does not handle', async () => {
    expect(await verdict(await sevenZ([{ name: 'a.txt', data: TEXT }]), 'application/zip')).toBe('archive_unreadable');
  });
});

describe('inspectSevenZip — damaged archives never escape as anything but a contract code', () => {
  it('answers every mutation of a 7z and a RAR with ok or an archive code', async () => {
    const seeds = [
      await sevenZ([
        { name: 'a.txt', data: TEXT },
        { name: 'd/b.bin', data: randomBytes(300) },
      ]),
      buildRar([
        { name: 'a.txt', data: Buffer.from(TEXT) },
        { name: 'b.txt', data: Buffer.from(TEXT) },
      ]),
    ];
    const allowed = ['ok', 'archive_unreadable', 'archive_bomb', 'archive_path_traversal', 'archive_executable'];
    for (const [index, seed] of seeds.entries()) {
      for (let i = 0; i < 20; i += 1) {
        const mutated = Buffer.from(seed);
        for (let flips = 0; flips < 3; flips += 1) {
          const at = 8 + Math.floor(Math.random() * (mutated.length - 8));
          mutated[at] = Math.floor(Math.random() * 256);
        }
        expect(allowed).toContain(await verdict(mutated, index === 0 ? MIME_7Z : MIME_RAR, {}, { timeoutMs: 2000 }));
      }
    }
  });
});
