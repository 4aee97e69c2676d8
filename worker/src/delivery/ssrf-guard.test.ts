// The SSRF guard: without WEBHOOK_ALLOW_PRIVATE, a webhook may not reach loopback, private,
// link-local or metadata addresses, whether written as an IP or behind a name that resolves to
// one. The refusal happens before any connection: a receiver on loopback sees nothing.
import { addressRange, assertAllowedHost, guardedLookup, isPublicAddress } from '@intake/shared/delivery';
import { sendWebhook } from './send-webhook.js';
import { startWebhookReceiver, type WebhookReceiver } from '@intake/shared/test';

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
});

const send = (url: string, allowPrivateAddresses = false) =>
  sendWebhook({ url, body: '{}', headers: {} }, { timeoutMs: 2000, allowPrivateAddresses });

describe('SSRF guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['[::1]', 'loopback'],
    ['192.168.1.10', 'private'],
    ['172.16.0.1', 'private'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[fd00:ec2::254]', 'uniqueLocal'],
    ['[fe80::1]', 'linkLocal'],
    ['[::7f00:1]', 'ipv4Compatible'],
    ['[::a00:1]', 'ipv4Compatible'],
    ['[::808:808]', 'ipv4Compatible'],
    ['[64:ff9b::7f00:1]', 'rfc6052'],
    ['[64:ff9b::a9fe:a9fe]', 'rfc6052'],
    ['[64:ff9b:1::a00:1]', 'rfc6052'],
    ['[2002:7f00:1::1]', '6to4'],
    ['[2002:a9fe:a9fe::1]', '6to4'],
    ['[100::1]', 'discard'],
    ['[2001::1]', 'teredo'],
    ['[::ffff:0:7f00:1]', 'rfc6145'],
  ])('refuses %s (%s) unless private addresses are allowed', (host, range) => {
    expect(addressRange(host)).toBe(range);
    expect(() => assertAllowedHost(host, false)).toThrow(`address refused: ${host.replace(/^\[|\]$/g, '')} is`);
    expect(() => assertAllowedHost(host, true)).not.toThrow();
  });

  it('lets public addresses and names through to resolution', () => {
    expect(isPublicAddress('93.184.215.14')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    expect(() => assertAllowedHost('hooks.example.com', false)).not.toThrow();
  });

  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '169.254.169.254',
    '[::1]',
    '2130706433',
    '0x7f.1',
    '[::127.0.0.1]',
    '[::169.254.169.254]',
    '[64:ff9b::127.0.0.1]',
    '[2002:7f00:1::1]',
    '[100::1]',
  ])('sendWebhook refuses http://%s before connecting', async (host) => {
    const outcome = await send(`http://${host}:9/hook`);
    expect(outcome).toEqual(
      expect.objectContaining({
        succeeded: false,
        statusCode: null,
        error: expect.stringMatching(/^address refused: /),
      }),
    );
    expect(outcome.durationMs).toBeLessThan(100);
  });

  it('refuses a loopback receiver by IP and by a name resolving to loopback (localhost); it is never called', async () => {
    const port = new URL(receiver.url).port;
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::1]:${port}/`]) {
      const outcome = await send(url);
      expect(outcome.succeeded).toBe(false);
      expect(outcome.error).toMatch(
        /^address refused: (127\.0\.0\.1|::1) is loopback \(WEBHOOK_ALLOW_PRIVATE=true allows it\)$/,
      );
    }
    expect(receiver.received).toHaveLength(0);
    // The same receiver is reached when private addresses are allowed: the refusal above was the guard.
    const allowed = await send(`http://localhost:${port}/`, true);
    expect(allowed).toEqual(expect.objectContaining({ succeeded: true, statusCode: 200 }));
    expect(receiver.received).toHaveLength(1);
  });

  it('refuses every scheme but http and https', async () => {
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'gopher://example.com/']) {
      const outcome = await send(url, true);
      expect(outcome.error).toMatch(/^scheme (ftp|file|gopher) is not allowed$/);
    }
  });

  it('the lookup refuses a name when any of its addresses is refused', async () => {
    const lookup = guardedLookup(false);
    const error = await new Promise<Error | null>((resolve) =>
      lookup('localhost', { all: true }, (failure) => resolve(failure)),
    );
    expect(error?.message).toMatch(/^address refused: /);
    const allowed = await new Promise<unknown>((resolve) =>
      guardedLookup(true)('localhost', { all: true }, (_failure, addresses) => resolve(addresses)),
    );
    expect(Array.isArray(allowed) && allowed.length > 0).toBe(true);
  });
});
