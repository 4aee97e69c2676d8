// HSTS on the gateway's answers exactly when its public address is https (issue 34, item 2).
import { jest } from '@jest/globals';
import { startTestGateway } from '../test/harness.js';

jest.setTimeout(120_000);

const hstsOf = async (env: Record<string, string>): Promise<(string | null)[]> => {
  const harness = await startTestGateway(env);
  try {
    const health = await fetch(`${harness.gateway.url}/healthz`);
    const refused = await fetch(`${harness.gateway.url}/api/v1/send/nothing-here`, { method: 'POST' });
    return [health.headers.get('strict-transport-security'), refused.headers.get('strict-transport-security')];
  } finally {
    await harness.close();
  }
};

it('is sent on every answer when PUBLIC_URL is https', async () => {
  expect(await hstsOf({ PUBLIC_URL: 'https://intake.example.com' })).toEqual(['max-age=31536000', 'max-age=31536000']);
});

it('follows PUBLIC_GATEWAY_URL when it overrides the base', async () => {
  expect(
    await hstsOf({ PUBLIC_URL: 'https://intake.example.com', PUBLIC_GATEWAY_URL: 'http://intake.lan:3000' }),
  ).toEqual([null, null]);
  expect(await hstsOf({ PUBLIC_GATEWAY_URL: 'https://send.example.com' })).toEqual([
    'max-age=31536000',
    'max-age=31536000',
  ]);
});

it('is not sent over plain http without an https public address', async () => {
  expect(await hstsOf({})).toEqual([null, null]);
});
