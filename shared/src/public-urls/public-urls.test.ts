import { parseConfig } from '../config/load-config.js';
import { exposureWarnings } from './exposure-warnings.js';
import { adminIsHttps, gatewayIsHttps, isLoopbackHost, publicOrigins } from './public-urls.js';

const SECRETS = {
  API_KEY: 'k',
  JWT_SECRET: 's',
  TOKEN_ENCRYPTION_KEY: '0'.repeat(64),
};

const configWith = (env: Record<string, string>) => parseConfig({ ...SECRETS, ...env });

describe('the public origins', () => {
  it('are localhost on the ports when nothing is set, even bound to 0.0.0.0 or ::', () => {
    for (const HOST of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost']) {
      expect({ HOST, ...publicOrigins(configWith({ HOST })) }).toEqual({
        HOST,
        admin: 'http://localhost:4000',
        gateway: 'http://localhost:3000',
      });
    }
  });

  it('are a specific address HOST names, which reaches the machine from elsewhere', () => {
    expect(publicOrigins(configWith({ HOST: '192.168.1.20' }))).toEqual({
      admin: 'http://192.168.1.20:4000',
      gateway: 'http://192.168.1.20:3000',
    });
    expect(publicOrigins(configWith({ HOST: 'fd00::5', GATEWAY_PORT: '8080' })).gateway).toBe('http://[fd00::5]:8080');
  });

  it('take the real ports when a port is 0', () => {
    const config = configWith({ ADMIN_PORT: '0', GATEWAY_PORT: '0' });
    expect(publicOrigins(config, { adminPort: 41234, gatewayPort: 41235 })).toEqual({
      admin: 'http://localhost:41234',
      gateway: 'http://localhost:41235',
    });
  });

  it('follow PUBLIC_URL: a proxy on its own port serves the gateway at the same origin', () => {
    expect(publicOrigins(configWith({ PUBLIC_URL: 'https://intake.example.com/', HOST: '0.0.0.0' }))).toEqual({
      admin: 'https://intake.example.com',
      gateway: 'https://intake.example.com',
    });
  });

  it('follow PUBLIC_URL on the admin port: the services reached directly, the gateway on its port', () => {
    expect(publicOrigins(configWith({ PUBLIC_URL: 'http://intake.lan:4000', HOST: '0.0.0.0' }))).toEqual({
      admin: 'http://intake.lan:4000',
      gateway: 'http://intake.lan:3000',
    });
  });

  it('let PUBLIC_ADMIN_URL and PUBLIC_GATEWAY_URL override either side', () => {
    const both = configWith({
      PUBLIC_URL: 'https://intake.example.com',
      PUBLIC_ADMIN_URL: 'https://admin.example.com',
      PUBLIC_GATEWAY_URL: 'https://send.example.com',
    });
    expect(publicOrigins(both, { requestOrigin: 'http://10.0.0.5:4000' })).toEqual({
      admin: 'https://admin.example.com',
      gateway: 'https://send.example.com',
    });
    expect(
      publicOrigins(
        configWith({ PUBLIC_URL: 'https://intake.example.com', PUBLIC_GATEWAY_URL: 'https://send.example.com' }),
      ),
    ).toEqual({
      admin: 'https://intake.example.com',
      gateway: 'https://send.example.com',
    });
  });

  it('take the gateway from PUBLIC_ADMIN_URL alone, never from the bind address (issue 34)', () => {
    const config = configWith({ HOST: '0.0.0.0', PUBLIC_ADMIN_URL: 'http://intake.lan:4000' });
    expect(publicOrigins(config)).toEqual({ admin: 'http://intake.lan:4000', gateway: 'http://intake.lan:3000' });
  });

  it('are the address a request came to when nothing is configured, the gateway beside it', () => {
    const config = configWith({ HOST: '0.0.0.0' });
    expect(publicOrigins(config, { requestOrigin: 'http://192.168.1.20:4000' })).toEqual({
      admin: 'http://192.168.1.20:4000',
      gateway: 'http://192.168.1.20:3000',
    });
    expect(publicOrigins(config, { requestOrigin: 'https://admin.intake.test' })).toEqual({
      admin: 'https://admin.intake.test',
      gateway: 'https://admin.intake.test',
    });
    expect(publicOrigins(config, { requestOrigin: 'http://0.0.0.0:4000' }).admin).toBe('http://localhost:4000');
    expect(publicOrigins(config, { requestOrigin: 'http://bad host:4000' }).admin).toBe('http://localhost:4000');
  });

  it('is https, for Secure cookies and HSTS, only when the public address says so', () => {
    expect(adminIsHttps(configWith({}))).toBe(false);
    expect(adminIsHttps(configWith({ PUBLIC_URL: 'https://intake.example.com' }))).toBe(true);
    expect(gatewayIsHttps(configWith({ PUBLIC_URL: 'https://intake.example.com' }))).toBe(true);
    const split = configWith({
      PUBLIC_URL: 'https://intake.example.com',
      PUBLIC_GATEWAY_URL: 'http://intake.lan:3000',
    });
    expect([adminIsHttps(split), gatewayIsHttps(split)]).toEqual([true, false]);
  });
});

describe('the public address settings', () => {
  it.each([
    ['PUBLIC_URL', 'http://0.0.0.0:4000', /PUBLIC_URL: must be an address people can open/],
    ['PUBLIC_GATEWAY_URL', 'http://[::]:3000', /PUBLIC_GATEWAY_URL: must be an address people can open/],
    ['PUBLIC_URL', 'https://intake.example.com/intake', /PUBLIC_URL: must be an origin such as/],
    ['PUBLIC_ADMIN_URL', 'ftp://admin.example.com', /PUBLIC_ADMIN_URL: must be an origin such as/],
  ])('refuse %s=%s', (name, value, message) => {
    expect(() => configWith({ [name]: value })).toThrow(message);
  });
});

describe('loopback hosts', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.8.0.1', true],
    ['::1', true],
    ['[::1]', true],
    ['admin.localhost', true],
    ['0.0.0.0', false],
    ['192.168.1.20', false],
    ['intake.example.com', false],
  ])('%s: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('the warnings at start', () => {
  const warnings = (env: Record<string, string>, service: 'gateway' | 'admin' | 'worker') => {
    const config = configWith(env);
    return exposureWarnings(config, service, publicOrigins(config));
  };

  it('say nothing on loopback, the default', () => {
    expect(warnings({}, 'admin')).toEqual([]);
    expect(warnings({}, 'gateway')).toEqual([]);
  });

  it('say what to do when a service listens beyond loopback over plain HTTP without TRUST_PROXY', () => {
    const [plain, links] = warnings({ HOST: '0.0.0.0' }, 'admin');
    expect(plain).toMatch(/admin listens on 0\.0\.0\.0.*plain HTTP.*TLS proxy.*TRUST_PROXY=true and PUBLIC_URL=https/);
    expect(links).toMatch(/PUBLIC_URL is unset.*http:\/\/localhost:4000.*Set PUBLIC_URL/);
    expect(warnings({ HOST: '0.0.0.0' }, 'gateway')).toEqual([expect.stringMatching(/gateway listens on 0\.0\.0\.0/)]);
    expect(warnings({ HOST: '0.0.0.0', PUBLIC_URL: 'http://intake.lan:4000' }, 'admin')).toEqual([
      expect.stringMatching(/plain HTTP/),
    ]);
  });

  it('say that a proxy needs TRUST_PROXY when the public address is https', () => {
    expect(warnings({ PUBLIC_URL: 'https://intake.example.com' }, 'gateway')).toEqual([
      expect.stringMatching(/gateway's public address https:\/\/intake\.example\.com is https.*Set TRUST_PROXY=true/),
    ]);
    expect(warnings({ PUBLIC_URL: 'https://intake.example.com', TRUST_PROXY: 'true' }, 'admin')).toEqual([]);
  });

  it('tell the worker its links go nowhere when requests come through a proxy and PUBLIC_URL is unset', () => {
    expect(warnings({ TRUST_PROXY: 'true' }, 'worker')).toEqual([expect.stringMatching(/PUBLIC_URL is unset/)]);
  });
});
