import { relyingParty } from './relying-party.js';

describe('the relying party of passkeys', () => {
  it('is PUBLIC_ADMIN_URL when set, whatever address the request came to', () => {
    expect(relyingParty('https://intake-admin.example.com', 'http://10.0.0.5:4000')).toEqual({
      id: 'intake-admin.example.com',
      origin: 'https://intake-admin.example.com',
      name: 'Intake',
    });
  });

  it("is the request's own origin otherwise, port and all", () => {
    expect(relyingParty(undefined, 'http://localhost:4000')).toMatchObject({
      id: 'localhost',
      origin: 'http://localhost:4000',
    });
  });

  it.each(['http://127.0.0.1:4000', 'http://[::1]:4000'])('refuses an IP address (%s), saying what to do', (origin) => {
    expect(() => relyingParty(undefined, origin)).toThrow(/host name.*PUBLIC_ADMIN_URL/);
  });
});
