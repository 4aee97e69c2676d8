// `npm run admin` as an operator runs it: the compiled command in a directory of its own, next to a
// real `npm start` on the embedded database. It waits its turn for the database (refused while the
// service holds it), gives a locked-out owner a new password (generated and printed once, or read
// from stdin), enables a disabled one again and removes a lost second factor (passkeys included);
// the service then accepts that owner's password alone, and the audit log says the admin command did
// it, without the password.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import {
  graphqlRequest,
  killProcesses,
  listeningUrl,
  REPO_ROOT,
  runScript,
  type StartedProcess,
} from '@intake/shared/test';

const START = 'scripts/start.js';
const ADMIN_CLI = 'admin-api/dist/admin-cli.js';

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the compiled admin command in `cwd` with `stdin` written to it; resolves when it exits. */
function runAdminCommand(cwd: string, args: string[], stdin = ''): Promise<CommandResult> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, ADMIN_CLI), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GATEWAY_PORT: '0', ADMIN_PORT: '0' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';

describe('npm run admin', () => {
  it('resets a password, enables an account and removes a second factor through the embedded-database lock, recorded in the audit log', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-admin-cli-'));
    const started: StartedProcess[] = [];
    const start = () => {
      const child = runScript(START, cwd, { GATEWAY_PORT: '0', ADMIN_PORT: '0' });
      started.push(child);
      return child;
    };
    try {
      const first = start();
      await listeningUrl(first, 'admin');
      const env = readFileSync(path.join(cwd, '.env'), 'utf8');
      const email = /^ADMIN_EMAIL=(.*)$/m.exec(env)?.[1] ?? '';
      const firstPassword = /^ADMIN_PASSWORD=(.*)$/m.exec(env)?.[1] ?? '';
      expect(email).toContain('@');

      // The service holds the embedded database: the command waits for no lock, it stops at once.
      const busy = await runAdminCommand(cwd, ['reset-password', email]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`is in use by process ${first.child.pid}`);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      const generated = await runAdminCommand(cwd, ['reset-password', email.toUpperCase()]);
      expect(generated.code).toBe(0);
      const printed = new RegExp(`new password for ${email.toUpperCase()} .*: (\\S+)$`, 'm').exec(
        generated.stdout,
      )?.[1];
      expect(printed).toMatch(/^[A-Za-z0-9_-]{24}$/);

      const chosen = 'a chosen password for the day';
      const fromStdin = await runAdminCommand(cwd, ['reset-password', email, '--password-stdin'], `${chosen}\n`);
      expect(fromStdin.code).toBe(0);
      expect(fromStdin.stdout + fromStdin.stderr).not.toContain(chosen);

      const tooShort = await runAdminCommand(cwd, ['reset-password', email, '--password-stdin'], 'short\n');
      expect(tooShort.code).toBe(1);
      expect(tooShort.stderr).toContain('between 12 and 1024 characters');
      expect(tooShort.stderr).not.toContain('short\n');
      const unknown = await runAdminCommand(cwd, ['enable', 'nobody@example.com']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('no account has the e-mail nobody@example.com');
      const usage = await runAdminCommand(cwd, ['delete-everything', email]);
      expect(usage.code).toBe(1);
      expect(usage.stderr).toContain('usage: npm run admin');

      // Locked out for good: the only owner disabled.
      const db = await openDatabase({ pgliteDir: path.join(cwd, 'data', 'db') });
      await db.em.fork().nativeUpdate(AdminUserSchema, { email }, { status: 'disabled' });
      await db.close();
      const enabled = await runAdminCommand(cwd, ['enable', email]);
      expect(enabled.code).toBe(0);

      // The owner's only second factor is a passkey on a lost phone: the password alone is refused.
      const withPasskey = await openDatabase({ pgliteDir: path.join(cwd, 'data', 'db') });
      await withPasskey.em
        .fork()
        .getConnection()
        .execute(
          `insert into passkeys (id, admin_id, name, credential_id, public_key, counter, backed_up, created_at)
           select ?, id, 'Lost phone', ?, ?, 0, false, now() from admin_users where email = ?`,
          [randomUUID(), randomBytes(16).toString('base64url'), randomBytes(77).toString('base64url'), email],
        );
      await withPasskey.close();
      const reset = await runAdminCommand(cwd, ['reset-two-factor', email]);
      expect(reset).toMatchObject({ code: 0, stderr: '' });
      expect(reset.stdout).toContain(`${email} signs in with the password alone`);

      const next = start();
      const url = await listeningUrl(next, 'admin');
      expect(
        (await graphqlRequest<{ login: unknown }>(url, LOGIN, { email, password: firstPassword })).data?.login,
      ).toBeFalsy();
      expect(
        (await graphqlRequest<{ login: unknown }>(url, LOGIN, { email, password: printed })).data?.login,
      ).toBeFalsy();
      const signedIn = await graphqlRequest<{ login: { token: string } }>(url, LOGIN, { email, password: chosen });
      const token = signedIn.data?.login.token as string;
      expect(token).toBeTruthy();

      const log = await graphqlRequest<{ auditLog: { edges: { node: Record<string, any> }[] } }>(
        url,
        '{ auditLog(first: 10, filter: { actor: "admin command" }) { edges { node { actor { kind name } action objectType details } } } }',
        {},
        token,
      );
      const entries = log.data?.auditLog.edges.map((edge) => edge.node) ?? [];
      expect(entries.map((entry) => entry.action)).toEqual([
        'member.twoFactorReset',
        'member.enabled',
        'member.passwordReset',
        'member.passwordReset',
      ]);
      expect(entries[0]).toMatchObject({
        actor: { kind: 'SYSTEM', name: 'admin command' },
        objectType: 'AdminUser',
        details: { email, hadSecondFactor: true, passkeysRemoved: 1 },
      });
      expect(JSON.stringify(entries)).not.toContain(chosen);
      expect(JSON.stringify(entries)).not.toContain(printed);
    } finally {
      await killProcesses(started);
    }
  }, 240_000);

  it('rotates the receipt signing key in DATA_DIR: the old one stays published, the file stays 0600', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'intake-admin-cli-keys-'));
    const secrets = ['API_KEY', 'JWT_SECRET'].map((name) => `${name}=${randomBytes(32).toString('base64url')}`);
    writeFileSync(
      path.join(cwd, '.env'),
      [...secrets, `TOKEN_ENCRYPTION_KEY=${randomBytes(32).toString('hex')}`, ''].join('\n'),
    );
    const keyFile = path.join(cwd, 'data', 'receipt-keys.json');
    const kids = () => (JSON.parse(readFileSync(keyFile, 'utf8')) as { keys: { jwk: { kid: string } }[] }).keys;

    const first = await runAdminCommand(cwd, ['rotate-receipt-key']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const [made, retired] = kids();
    expect(first.stdout).toContain(`new receipt signing key ${made!.jwk.kid}; ${retired!.jwk.kid} is retired`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const second = await runAdminCommand(cwd, ['rotate-receipt-key']);
    expect(second.code).toBe(0);
    expect(
      kids()
        .map((key) => key.jwk.kid)
        .slice(1),
    ).toEqual([made!.jwk.kid, retired!.jwk.kid]);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    appendFileSync(path.join(cwd, '.env'), `RECEIPT_SIGNING_KEY=${JSON.stringify({ kty: 'OKP' })}\n`);
    const refused = await runAdminCommand(cwd, ['rotate-receipt-key']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^RECEIPT_SIGNING_KEY is set: rotate by putting the new key first in its array/);
    expect(kids()).toHaveLength(3);
  }, 60_000);
});
