// Runs the documented offline verifier (scripts/verify-audit-log.mjs) as an auditor would: the
// export and the published key set as files, optionally a witnessed checkpoint, in a child process.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Services } from '../services/index.js';
import { REPO_ROOT } from './processes.js';

export interface OfflineVerification {
  code: number | null;
  result: Record<string, unknown>;
}

export async function verifyExportOffline(
  services: Pick<Services, 'auditChain'>,
  content: string,
  options: { witness?: string } = {},
): Promise<OfflineVerification> {
  const dir = await mkdtemp(path.join(tmpdir(), 'intake-audit-export-'));
  await writeFile(path.join(dir, 'audit-log.ndjson'), content);
  await writeFile(path.join(dir, 'jwks.json'), JSON.stringify(await services.auditChain.signing!.publicKeys()));
  const args = [path.join(REPO_ROOT, 'scripts/verify-audit-log.mjs'), 'audit-log.ndjson', 'jwks.json'];
  if (options.witness !== undefined) {
    await writeFile(path.join(dir, 'witness.txt'), `${options.witness}\n`);
    args.push('--witness', 'witness.txt');
  }
  const child = spawn(process.execPath, args, { cwd: dir });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, result: out.trim() === '' ? {} : (JSON.parse(out) as Record<string, unknown>) };
}
