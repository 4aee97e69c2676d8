// Finds a clamd for tests and gives them the EICAR test file. Where clamd comes from, in order:
// `CLAMAV_SOCKET`, `CLAMAV_HOST` + `CLAMAV_PORT`, then the env file of `.ci/clamd.sh start`.
// Tests that need clamd go through `describeClamd`: skipped with the reason when there is none,
// failed when `CI=true` (CI provides clamd, so its absence is a broken pipeline, not a skip).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describeWithRealPart } from '@intake/shared/test';
import { ping } from '../files/scan/clamd-client.js';
import type { ClamdTarget } from '../files/scan/clamd-client.js';

export interface FoundClamd {
  /** The unix socket when there is one, else TCP. */
  target: ClamdTarget;
  /** The TCP listener too, when the configuration names one beside the socket. */
  tcp?: ClamdTarget;
  /** Where it is and where that came from, for messages. */
  description: string;
}

export type ClamdStatus = ({ available: true } & FoundClamd) | { available: false; reason: string };

const EICAR_MD5 = '44d88612fea8a8f36de82e1278abb02f';

/** Directory of `.ci/clamd.sh` (same rule as the script). */
export function clamdScriptDir(): string {
  return process.env.INTAKE_CLAMD_DIR ?? path.join(process.env.TMPDIR || '/tmp', 'intake-clamd');
}

/** The configured clamd, if any, with where the setting came from. */
export function clamdTarget(): FoundClamd | undefined {
  const fromEnv = targetFrom(process.env, 'the environment');
  if (fromEnv) {
    return fromEnv;
  }
  const envFile = path.join(clamdScriptDir(), 'env');
  let text: string;
  try {
    text = readFileSync(envFile, 'utf8');
  } catch {
    return undefined;
  }
  return targetFrom(parseEnvFile(text), envFile);
}

/** True when `target` answers PING within `timeoutMs`. */
export async function clamdAvailable(target: ClamdTarget, timeoutMs = 3000): Promise<boolean> {
  try {
    const reply = await ping(target, timeoutMs);
    return reply.text.trim() === 'PONG';
  } catch {
    return false;
  }
}

export async function clamdStatus(): Promise<ClamdStatus> {
  const found = clamdTarget();
  if (!found) {
    return {
      available: false,
      reason: `no clamd configured (CLAMAV_SOCKET / CLAMAV_HOST+CLAMAV_PORT unset, no ${path.join(clamdScriptDir(), 'env')}); run .ci/clamd.sh start`,
    };
  }
  if (!(await clamdAvailable(found.target))) {
    return { available: false, reason: `no clamd answering at ${found.description}` };
  }
  return { available: true, ...found };
}

/** A describe block for tests against a real clamd: skipped with the reason, or failed on CI. */
export function describeClamd(status: ClamdStatus, title: string, body: (clamd: FoundClamd) => void): void {
  // The placeholder target only lets a skipped body build its scanners.
  const placeholder = { target: { socket: path.join(clamdScriptDir(), 'absent.sock') }, description: 'none' };
  describeWithRealPart(
    title,
    status.available ? { available: true, value: status } : { available: false, reason: status.reason, placeholder },
    body,
  );
}

/**
 * The 68-byte EICAR test file, assembled at run time so the repository never holds it whole (and no
 * antivirus on a developer's machine flags the checkout).
 */
export function eicarBytes(): Buffer {
  const parts = ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$EI', 'CAR-STANDARD-ANTI', 'VIRUS-TEST-FILE!$H+H*'];
  const bytes = Buffer.from(parts.join(''), 'latin1');
  if (createHash('md5').update(bytes).digest('hex') !== EICAR_MD5) {
    throw new Error('EICAR test file assembled wrongly');
  }
  return bytes;
}

function targetFrom(env: Record<string, string | undefined>, source: string): FoundClamd | undefined {
  const tcp = env.CLAMAV_PORT ? { host: env.CLAMAV_HOST || '127.0.0.1', port: Number(env.CLAMAV_PORT) } : undefined;
  const target = env.CLAMAV_SOCKET ? { socket: env.CLAMAV_SOCKET } : tcp;
  if (!target) {
    return undefined;
  }
  return { target, ...(tcp ? { tcp } : {}), description: `${describeTarget(target)} (from ${source})` };
}

function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match?.[1]) {
      values[match[1]] = match[2] ?? '';
    }
  }
  return values;
}

function describeTarget(target: ClamdTarget): string {
  return target.socket ?? `${target.host}:${target.port}`;
}
