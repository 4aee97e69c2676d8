// The API never shows a write-only secret (a form's CAPTCHA secret), so plan cannot compare it. apply
// keeps a fingerprint of each secret it set, in the config folder (mode 0600): a salted sha256 that
// cannot be turned back into the secret. Where none is known (another machine, a secret set in the
// console) plan says "(secret changes)" and apply sends it again, which is harmless.
import { createHash } from 'node:crypto';
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { graphqlEndpoint } from '../api/client.js';
import { writePrivateFile } from '../private-file.js';
import { configDir } from './profiles.js';

type Fingerprints = Record<string, Record<string, string>>;

function file(): string {
  return path.join(configDir(), 'secret-fingerprints.json');
}

export function fingerprint(objectId: string, secret: string): string {
  return createHash('sha256').update(`intake-secret\0${objectId}\0${secret}`).digest('hex');
}

export class SecretFingerprints {
  private constructor(
    private readonly server: string,
    private readonly all: Fingerprints,
  ) {}

  static async load(url: string): Promise<SecretFingerprints> {
    let all: Fingerprints = {};
    try {
      all = JSON.parse(await readFile(file(), 'utf8')) as Fingerprints;
    } catch {
      // None yet (or unreadable): every secret is then sent again.
    }
    return new SecretFingerprints(graphqlEndpoint(url), all);
  }

  matches(objectId: string, secret: string): boolean {
    return this.all[this.server]?.[objectId] === fingerprint(objectId, secret);
  }

  async record(objectId: string, secret: string | undefined): Promise<void> {
    const server = (this.all[this.server] ??= {});
    if (secret === undefined) {
      delete server[objectId];
    } else {
      server[objectId] = fingerprint(objectId, secret);
    }
    await mkdir(configDir(), { recursive: true, mode: 0o700 });
    await writePrivateFile(file(), `${JSON.stringify(this.all, null, 2)}\n`);
  }
}
