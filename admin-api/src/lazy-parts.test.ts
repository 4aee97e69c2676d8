// What the compiled admin API leaves unloaded until an operation needs it (docs/performance.md,
// "Where the test suite's CPU goes"): importing it loads every resolver, but not the passkey
// library, which only a passkey operation uses. A module-load hook (--import) lists what was loaded.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { missingBuild, readModuleList, REPO_ROOT, writeModuleListHook } from '@intake/shared/test';

const ENTRY = 'admin-api/dist/index.js';
const PASSKEY_LIBRARY = '/node_modules/@simplewebauthn/server/';

/** The module URLs loaded by importing the admin API, then by running `then` (an expression). */
function loadedBy(then: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'intake-admin-lazy-'));
  try {
    const hook = writeModuleListHook(dir, 'exit');
    const loadedFile = path.join(dir, 'loaded.json');
    const entry = path.join(REPO_ROOT, ENTRY);
    const script = `await import(${JSON.stringify(entry)}); ${then};`;
    const result = spawnSync(process.execPath, [`--import=${hook}`, '--input-type=module', '-e', script], {
      cwd: path.join(REPO_ROOT, 'admin-api'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOADED_FILE: loadedFile },
      encoding: 'utf8',
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    return readModuleList(loadedFile).modules;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it('loads the passkey library on the first passkey operation, not with the rest of the admin API', () => {
  const built = missingBuild([ENTRY]);
  if (built) {
    throw new Error(built);
  }
  const started = loadedBy('');
  expect(started.some((url) => url.endsWith('/admin-api/dist/index.js'))).toBe(true);
  expect(started.some((url) => url.includes('/admin-api/dist/sign-in/passkeys/passkey.resolver.js'))).toBe(true);
  expect(started.filter((url) => url.includes(PASSKEY_LIBRARY))).toEqual([]);

  const webAuthn = path.join(REPO_ROOT, 'admin-api/dist/sign-in/passkeys/webauthn.js');
  const used = loadedBy(`await (await import(${JSON.stringify(webAuthn)})).webAuthn()`);
  expect(used.some((url) => url.includes(PASSKEY_LIBRARY))).toBe(true);
});
