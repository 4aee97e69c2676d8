// `npm run bench` (inspection part): how long the archive stage takes to refuse the classic bombs,
// which must happen in well under a second without inflating them, and the throughput of a clean
// 5 MB DOCX. Samples are built in memory by the same builders the tests use.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAppError } from '@intake/shared/errors';
import { MIME_DOCX, MIME_ZIP } from '@intake/shared/mime-types';
import { closeSevenZipPool, DEFAULT_ARCHIVE_LIMITS, inspectArchive } from '@intake/gateway/archive';
import { manyEntriesZip, nestedZipBomb, sharedLocalHeaderZip, docx } from '@intake/test-files';

export interface InspectionFigure {
  name: string;
  /** Median milliseconds of one inspection. */
  medianMs: number;
  /** What the stage answered: a contract code, or `accepted`. */
  outcome: string;
  /** Throughput, for accepted files. */
  mbPerSecond?: number;
  target: string;
  met: boolean;
}

async function timeInspection(
  file: string,
  mimeType: string,
  runs: number,
): Promise<{ medianMs: number; outcome: string }> {
  const times: number[] = [];
  let outcome = 'accepted';
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    try {
      await inspectArchive({ path: file, mimeType }, DEFAULT_ARCHIVE_LIMITS);
      outcome = 'accepted';
    } catch (error) {
      outcome = isAppError(error) ? error.code : 'internal error';
    }
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)]!, outcome };
}

export async function benchInspection(): Promise<InspectionFigure[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-bench-'));
  try {
    const write = async (name: string, bytes: Buffer) => {
      const file = path.join(dir, name);
      await writeFile(file, bytes);
      return file;
    };
    const bombs: [string, string, string][] = [
      ['zip of 10,001 entries', await write('many.zip', manyEntriesZip(10_001)), 'archive_bomb'],
      [
        '42.zip-style nested bomb (16 wide, 5 deep)',
        await write('nested.zip', await nestedZipBomb(5, 16)),
        'archive_bomb',
      ],
      ['overlap bomb (shared local header)', await write('overlap.zip', sharedLocalHeaderZip()), 'archive_bomb'],
    ];
    const figures: InspectionFigure[] = [];
    for (const [name, file, expected] of bombs) {
      const { medianMs, outcome } = await timeInspection(file, MIME_ZIP, 5);
      figures.push({
        name,
        medianMs,
        outcome,
        target: `${expected} in < 1000 ms`,
        met: outcome === expected && medianMs < 1000,
      });
    }
    // Incompressible media make the package really 5 MB, as photos in a report would.
    const bytes = await docx({ extraEntries: { 'word/media/image1.png': randomBytes(5 * 1024 * 1024) } });
    const file = await write('report.docx', bytes);
    const { medianMs, outcome } = await timeInspection(file, MIME_DOCX, 5);
    const mbPerSecond = bytes.length / 1024 / 1024 / (medianMs / 1000);
    figures.push({
      name: `clean DOCX of ${(bytes.length / 1024 / 1024).toFixed(1)} MB`,
      medianMs,
      outcome,
      mbPerSecond,
      target: 'accepted',
      met: outcome === 'accepted',
    });
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
    await closeSevenZipPool();
  }
}
