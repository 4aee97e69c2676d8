// The signing keys made by Intake itself, in DATA_DIR/receipt-keys.json (mode 0600), when
// RECEIPT_SIGNING_KEY is not set. Newest first: the first signs, the others are retired.
import { randomUUID } from 'node:crypto';
import { chmod, link, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { keyIdOf, readEd25519Jwk, type KeyEntry } from './key-entry.js';

export const KEY_FILE_NAME = 'receipt-keys.json';
const PRIVATE_MODE = 0o600;

interface StoredEntry {
  jwk: JWK;
  retiredAt?: string;
}

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, KEY_FILE_NAME);
}

/**
 * The keys of the file, made with a fresh key on first start. Several processes starting at once
 * (the gateway's cluster) agree on one key: each writes its own temporary file and links it into
 * place, which fails for all but the first; the others then read the winner's.
 */
export async function readOrCreateKeyFile(dataDir: string): Promise<KeyEntry[]> {
  const file = keyFilePath(dataDir);
  try {
    return await readKeyFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
  }
  const entries = [{ jwk: await newSigningJwk() }];
  const temporary = await writeTemporary(file, entries);
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw error;
    }
  } finally {
    await unlink(temporary);
  }
  return readKeyFile(file);
}

/**
 * Makes a new current key and retires the one that signed until now (at `now`). Returns the new
 * list. The file is replaced whole (rename), so a reader sees the old list or the new one.
 */
export async function rotateKeyFile(dataDir: string, now = new Date()): Promise<KeyEntry[]> {
  const file = keyFilePath(dataDir);
  const [current, ...retired] = await readOrCreateKeyFile(dataDir);
  const entries: KeyEntry[] = [{ jwk: await newSigningJwk() }, { ...current!, retiredAt: now }, ...retired];
  await rename(await writeTemporary(file, entries), file);
  return entries;
}

async function newSigningJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await keyIdOf(jwk) };
}

async function writeTemporary(file: string, entries: readonly KeyEntry[]): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  const stored: StoredEntry[] = entries.map(({ jwk, retiredAt }) => ({
    jwk,
    ...(retiredAt ? { retiredAt: retiredAt.toISOString() } : {}),
  }));
  await writeFile(temporary, `${JSON.stringify({ keys: stored }, null, 2)}\n`, { mode: PRIVATE_MODE, flag: 'wx' });
  // The mode of a new file is reduced by the umask, never widened: set it exactly.
  await chmod(temporary, PRIVATE_MODE);
  return temporary;
}

async function readKeyFile(file: string): Promise<KeyEntry[]> {
  const text = await readFile(file, 'utf8');
  // A copy restored with a looser mode is tightened: the file holds the private key.
  if (((await stat(file)).mode & 0o077) !== 0) {
    await chmod(file, PRIVATE_MODE);
  }
  let stored: { keys?: unknown };
  try {
    stored = JSON.parse(text) as { keys?: unknown };
  } catch {
    throw new Error(`${file}: not valid JSON; restore it from a backup or remove it to make a new signing key`);
  }
  if (!Array.isArray(stored.keys) || stored.keys.length === 0) {
    throw new Error(`${file}: holds no keys; restore it from a backup or remove it to make a new signing key`);
  }
  return (stored.keys as StoredEntry[]).map((entry, position) => ({
    jwk: readEd25519Jwk(entry?.jwk, `${file} key ${position}`, position === 0),
    ...(entry.retiredAt ? { retiredAt: new Date(entry.retiredAt) } : {}),
  }));
}
