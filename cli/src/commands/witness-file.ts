// The witness `intake audit verify --witness FILE` reads: a file whose last line is a checkpoint's
// compact JWS (as AUDIT_WITNESS_FILE and the `audit checkpoint` log line keep them) or the JSON that
// GET /.well-known/audit-checkpoint answers, the same file the offline script takes (docs/audit-log.md).
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

const COMPACT_JWS = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export async function readWitness(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the witness file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const line = text.trim().split('\n').at(-1)?.trim() ?? '';
  const jws = line.startsWith('{') ? checkpointOf(line) : line;
  if (!COMPACT_JWS.test(jws)) {
    throw new UsageError(
      `the last line of ${file} is not a signed checkpoint (a compact JWS, or the JSON of /.well-known/audit-checkpoint)`,
    );
  }
  return jws;
}

function checkpointOf(line: string): string {
  try {
    const parsed = JSON.parse(line) as { checkpoint?: unknown; auditCheckpoint?: unknown };
    const jws = parsed.checkpoint ?? parsed.auditCheckpoint;
    return typeof jws === 'string' ? jws : '';
  } catch {
    return '';
  }
}
