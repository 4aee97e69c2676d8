// What the database and the file storage hold after a run, read directly (not through the gateway),
// and the checks every reliability run makes on it: each file row has its object, each object's
// bytes hash to the row's sha256, and no object is left without a row.
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '@intake/shared/db';

export interface StoredSubmission {
  id: string;
  data: Record<string, unknown>;
  files: { storageKey: string; sha256: string; size: number; name: string }[];
}

export interface StoreState {
  submissions: Map<string, StoredSubmission>;
  /** File rows whose object is missing or whose bytes do not hash to the row's sha256. */
  brokenFiles: string[];
  /** Objects under DATA_DIR/files that no row points at. */
  orphanObjects: string[];
  /** Files left in DATA_DIR/tmp (uploads in progress). */
  temporaryUploads: string[];
}

interface Row {
  id: string;
  data: Record<string, unknown> | string;
  storage_key: string | null;
  sha256: string | null;
  size: number | null;
  name: string | null;
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}

async function sha256Of(file: string): Promise<string | undefined> {
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  } catch {
    return undefined;
  }
}

export async function readStore(db: Database, dataDir: string): Promise<StoreState> {
  const rows = await db.em
    .fork()
    .getConnection()
    .execute<Row[]>(
      `select s.id, s.data, f.storage_key, f.sha256, f.size, f.name
         from submissions s left join stored_files f on f.submission_id = s.id
        order by s.id, f.position`,
    );
  const submissions = new Map<string, StoredSubmission>();
  for (const row of rows) {
    const data = typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data;
    const submission = submissions.get(row.id) ?? { id: row.id, data, files: [] };
    submissions.set(row.id, submission);
    if (row.storage_key) {
      submission.files.push({
        storageKey: row.storage_key,
        sha256: row.sha256!,
        size: Number(row.size),
        name: row.name!,
      });
    }
  }
  const filesDir = path.join(dataDir, 'files');
  const referenced = new Set<string>();
  const brokenFiles: string[] = [];
  for (const submission of submissions.values()) {
    for (const file of submission.files) {
      referenced.add(file.storageKey);
      if ((await sha256Of(path.join(filesDir, file.storageKey))) !== file.sha256) {
        brokenFiles.push(file.storageKey);
      }
    }
  }
  const objects = await listFiles(filesDir);
  return {
    submissions,
    brokenFiles,
    orphanObjects: objects.filter((key) => !referenced.has(key)),
    temporaryUploads: await listFiles(path.join(dataDir, 'tmp')),
  };
}
