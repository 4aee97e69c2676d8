// The examples of deploy/ (docs/deployment.md) are checked by the tools that will read them: nginx
// with `nginx -t` in a scratch prefix, the systemd unit with `systemd-analyze verify`, the Caddyfiles
// with `caddy validate`. Each check is also shown a broken copy, so a check that passes everything
// cannot hide. Under CI=true a missing tool fails (.ci/run installs them).
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { describeWithRealPart, REPO_ROOT, type RealPart } from '@intake/shared/test';

jest.setTimeout(60_000);

const deployFile = (name: string) => readFileSync(path.join(REPO_ROOT, 'deploy', name), 'utf8');

function tool(name: string): RealPart<string> {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  return found
    ? { available: true, value: found }
    : { available: false, reason: `${name} is not installed`, placeholder: name };
}

function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'intake-deploy-'));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describeWithRealPart('the nginx example', tool('nginx'), (nginx) => {
  /** `nginx -t` on deploy/nginx/intake.conf, changed by `edit`, with a throwaway certificate. */
  async function check(edit: (conf: string) => string = (conf) => conf) {
    const dir = mkdtempSync(path.join(scratch, 'nginx-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    const made = await run('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=admin.example.com',
    ]); // prettier-ignore
    expect(made.code).toBe(0);
    const conf = edit(deployFile('nginx/intake.conf'))
      .replaceAll('/etc/letsencrypt/live/admin.example.com/fullchain.pem', cert)
      .replaceAll('/etc/letsencrypt/live/admin.example.com/privkey.pem', key);
    writeFileSync(path.join(dir, 'intake.conf'), conf);
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log;`,
        'events {}',
        'http {',
        '  access_log off;',
        `  client_body_temp_path ${dir}/body;`,
        `  proxy_temp_path ${dir}/proxy;`,
        `  include ${dir}/intake.conf;`,
        '}',
      ].join('\n'),
    );
    return run(nginx, ['-t', '-p', `${dir}/`, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`]);
  }

  it('passes nginx -t', async () => {
    const result = await check();
    expect(result).toEqual({ code: 0, output: expect.stringContaining('test is successful') });
  });

  it('passes the headers Intake reads behind a trusted proxy, and streams uploads', () => {
    const conf = deployFile('nginx/intake.conf');
    for (const line of [
      'proxy_set_header Host $host;',
      'proxy_set_header X-Forwarded-Proto $scheme;',
      'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    ]) {
      expect(conf.split(line).length - 1).toBe(2);
    }
    expect(conf).toContain('proxy_request_buffering off;');
    expect(conf).toContain('client_max_body_size 26m;');
  });

  it("streams the console's live updates: no buffering, and quiet longer than the heartbeat", () => {
    const conf = deployFile('nginx/intake.conf');
    const admin = conf.slice(
      conf.indexOf('server_name admin.example.com;'),
      conf.indexOf('server_name send.example.com;'),
    );
    // GET /events (docs/console.md#live-updates) sends a comment every 25 s.
    expect(admin).toContain('proxy_buffering off;');
    const readTimeout = /proxy_read_timeout (\d+)s;/.exec(admin);
    expect(Number(readTimeout?.[1])).toBeGreaterThan(25);
  });

  it('is really checked: a broken copy fails', async () => {
    const result = await check((conf) =>
      conf.replace('proxy_pass http://intake_admin;', 'proxy_pass http://intake_admin'),
    );
    expect(result.code).not.toBe(0);
  });
});

describeWithRealPart('the systemd unit', tool('systemd-analyze'), (systemdAnalyze) => {
  /** `systemd-analyze verify` on the unit with this checkout and this Node in place of /opt/intake and /usr/bin/node. */
  function verify(edit: (unit: string) => string = (unit) => unit) {
    const dir = mkdtempSync(path.join(scratch, 'systemd-'));
    const unit = edit(deployFile('systemd/intake.service'))
      .replaceAll('/usr/bin/node', process.execPath)
      .replaceAll('/opt/intake', REPO_ROOT);
    const file = path.join(dir, 'intake.service');
    writeFileSync(file, unit);
    return run(systemdAnalyze, ['verify', file]);
  }

  it('passes systemd-analyze verify', async () => {
    expect(await verify()).toEqual({ code: 0, output: '' });
  });

  it('runs the one-process start from its folder and drains on SIGTERM', () => {
    const unit = deployFile('systemd/intake.service');
    expect(unit).toContain('ExecStart=/usr/bin/node /opt/intake/scripts/start.js');
    expect(unit).toContain('WorkingDirectory=/opt/intake');
    expect(unit).toContain('KillSignal=SIGTERM');
  });

  it('is really checked: a broken copy fails', async () => {
    const result = await verify((unit) => unit.replace(/^ExecStart=.*$/m, 'ExecStart=no-such-node start.js'));
    expect(result.code).not.toBe(0);
  });
});

describeWithRealPart('the Caddyfiles', tool('caddy'), (caddy) => {
  /** `caddy validate` on a Caddyfile of deploy/caddy, imported under a global block of test settings. */
  function validate(name: string, env: Record<string, string>) {
    const dir = mkdtempSync(path.join(scratch, 'caddy-'));
    const file = path.join(dir, 'Caddyfile');
    writeFileSync(
      file,
      `{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\tstorage file_system ${dir}/data\n}\nimport ${path.join(dir, 'site')}\n`,
    );
    writeFileSync(path.join(dir, 'site'), deployFile(`caddy/${name}`));
    return run(caddy, ['validate', '--config', file, '--adapter', 'caddyfile'], {
      ...env,
      HOME: dir,
      XDG_DATA_HOME: dir,
      XDG_CONFIG_HOME: dir,
    });
  }

  it.each([
    ['one-host.Caddyfile', { INTAKE_HOST: 'intake.intake.test' }],
    ['two-hosts.Caddyfile', { INTAKE_ADMIN_HOST: 'admin.intake.test', INTAKE_GATEWAY_HOST: 'send.intake.test' }],
  ])('%s passes caddy validate', async (name, env) => {
    const result = await validate(name, env);
    expect({ code: result.code, valid: result.output.includes('Valid configuration') }).toEqual({
      code: 0,
      valid: true,
    });
  });

  it('sends the gateway paths of the one-host shape to the gateway', () => {
    expect(deployFile('caddy/one-host.Caddyfile')).toContain('@gateway path /api/v1/* /browser/*');
    // The admin's own routes stay outside them: the console's live updates at /events among them.
    const globs = /@gateway path (.+)/.exec(deployFile('caddy/one-host.Caddyfile'))![1]!.trim().split(/\s+/);
    const toGateway = (path: string) =>
      globs.some((glob) => new RegExp(`^${glob.replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`).test(path));
    expect(['/api/v1/send/abc', '/browser/x'].map(toGateway)).toEqual([true, true]);
    expect(['/events', '/graphql', '/files/1'].map(toGateway)).toEqual([false, false, false]);
  });
});
