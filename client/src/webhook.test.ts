// The client's verification against another implementation of the scheme: the standardwebhooks
// package signs, the client verifies (the delivery worker's own signatures are verified in
// tests/src/end-to-end/client.test.ts).
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from './webhook.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const BODY = '{"type":"submission.created","data":{"id":"1","fields":{"name":"Zoë"}}}';

function signed(id = 'msg_1', at = new Date()) {
  const signature = new Webhook(SECRET).sign(id, at, BODY);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

describe('verifyWebhook', () => {
  it('accepts a signed body, from a plain object or a Headers, as text or bytes', () => {
    const headers = signed();
    expect(verifyWebhook(SECRET, headers, BODY)).toBe(true);
    expect(verifyWebhook(SECRET, new Headers(headers), new TextEncoder().encode(BODY))).toBe(true);
    const upper = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook(SECRET, upper, BODY)).toBe(true);
  });

  it('accepts any of several signatures (a rotation)', () => {
    const headers = signed();
    headers['webhook-signature'] = `v1,${randomBytes(32).toString('base64')} ${headers['webhook-signature']}`;
    expect(verifyWebhook(SECRET, headers, BODY)).toBe(true);
  });

  it('refuses a changed body, another secret, a missing header and an old timestamp', () => {
    const headers = signed();
    expect(verifyWebhook(SECRET, headers, BODY.replace('Zoë', 'Eve'))).toBe(false);
    expect(verifyWebhook(`whsec_${randomBytes(24).toString('base64')}`, headers, BODY)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, 'webhook-id': undefined }, BODY)).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, 'webhook-id': 'msg_2' }, BODY)).toBe(false);
    const old = signed('msg_1', new Date(Date.now() - 10 * 60_000));
    expect(verifyWebhook(SECRET, old, BODY)).toBe(false);
    expect(verifyWebhook(SECRET, old, BODY, { toleranceSeconds: 3600 })).toBe(true);
  });

  it.each([
    ['an empty secret', ''],
    ['a bare prefix', 'whsec_'],
    ['a secret that decodes to no bytes', 'whsec_=='],
  ])('refuses %s with a clear error instead of accepting signatures made with an empty key', (_, secret) => {
    const at = Math.floor(Date.now() / 1000);
    const emptyKeySignature = createHmac('sha256', Buffer.alloc(0)).update(`msg_1.${at}.${BODY}`).digest('base64');
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(at),
      'webhook-signature': `v1,${emptyKeySignature}`,
    };
    expect(() => verifyWebhook(secret, headers, BODY)).toThrow(TypeError);
    expect(() => verifyWebhook(secret, headers, BODY)).toThrow(
      new TypeError('verifyWebhook: the webhook signing secret is empty; pass the whsec_… secret of the webhook'),
    );
  });

  it.each([
    [undefined, 'undefined'],
    [null, 'null'],
    [42, 'number'],
  ])('refuses a missing secret (%p) with a clear error', (secret, got) => {
    expect(() => verifyWebhook(secret as unknown as string, signed(), BODY)).toThrow(TypeError);
    expect(() => verifyWebhook(secret as unknown as string, signed(), BODY)).toThrow(
      new TypeError(
        `verifyWebhook: the webhook signing secret is missing (got ${got}); pass the whsec_… secret of the webhook`,
      ),
    );
  });
});
