// Real ZIP tools for the polyglot tests: Python's zipfile writes the zip and says whether it opens
// a file; Info-ZIP's unzip and 7-Zip (7z-wasm, already a dependency) say whether they do. Python
// and unzip are machine tools: suites using them go through describeWithRealPart (skipped without
// them, failed under CI=true).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sevenZipPackage from '7z-wasm';
import type { RealPart } from '@intake/shared/test';

const found = (command: string, args: string[]): boolean => spawnSync(command, args).status === 0;

/** Whether python3 and unzip are on this machine. */
export function zipToolsPart(): RealPart<true> {
  const missing = [
    found('python3', ['-c', 'import zipfile']) ? null : 'python3',
    found('unzip', ['-v']) ? null : 'unzip',
  ].filter((name) => name !== null);
  return missing.length === 0
    ? { available: true, value: true }
    : { available: false, reason: `${missing.join(' and ')} not installed`, placeholder: true };
}

/** A zip holding `files` (name → bytes), written by Python's zipfile with deflate. */
export function pythonZip(files: Record<string, Buffer>): Buffer {
  const script = [
    'import io, json, sys, zipfile',
    'files = json.load(sys.stdin)',
    'out = io.BytesIO()',
    'with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:',
    '    for name, data in files.items(): z.writestr(name, bytes.fromhex(data))',
    'sys.stdout.buffer.write(out.getvalue())',
  ].join('\n');
  const input = JSON.stringify(
    Object.fromEntries(Object.entries(files).map(([name, data]) => [name, data.toString('hex')])),
  );
  return execFileSync('python3', ['-c', script], { input });
}

/** The entry names each tool lists when it opens `bytes` as a zip (empty when it does not). */
export async function namesListedBy(bytes: Buffer): Promise<{ python: string[]; unzip: string[]; sevenZip: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zip-tools-'));
  const file = path.join(dir, 'polyglot.bin');
  writeFileSync(file, bytes);
  try {
    const python = spawnSync('python3', [
      '-c',
      'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))',
      file,
    ]);
    const unzip = spawnSync('unzip', ['-Z1', file]);
    return {
      python: python.status === 0 ? python.stdout.toString().split('\n').filter(Boolean) : [],
      unzip: unzip.status === 0 || unzip.status === 1 ? unzip.stdout.toString().split('\n').filter(Boolean) : [],
      sevenZip: await sevenZipNames(bytes),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The paths 7-Zip lists for `bytes` opened as an archive of any type it finds in them. */
async function sevenZipNames(bytes: Buffer): Promise<string[]> {
  const lines: string[] = [];
  const module = await sevenZipPackage.default({
    print: (line: string) => lines.push(line),
    printErr: () => undefined,
  });
  module.FS.writeFile('/polyglot.bin', bytes);
  try {
    (module.callMain as unknown as (args: string[]) => number | undefined)(['l', '-slt', '/polyglot.bin']);
  } catch {
    return [];
  }
  // -slt prints the archive's own Path first, then one Path per entry.
  return lines
    .filter((line) => line.startsWith('Path = '))
    .map((line) => line.slice('Path = '.length))
    .filter((name) => name !== '/polyglot.bin');
}
