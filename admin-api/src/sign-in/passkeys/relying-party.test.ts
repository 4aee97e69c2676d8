import { relyingParty } from './relying-party.js';

describe('the relying party of passkeys', () => {
  it("is the console's public origin, its host name as the id", () => {
    expect(relyingParty('https://intake-admin.example.com')).toEqual({
      id: 'intake-admin.example.com',
      origin: 'https://intake-admin.example.com',
      name: 'Intake',
    });
  });

  it('keeps the port in the origin', () => {
    expect(relyingParty('http://localhost:4000')).toMatchObject({
      id: 'localhost',
      origin: 'http://localhost:4000',
    });
  });

  it.each(['http://127.0.0.1:4000', 'http://[::1]:4000'])('refuses an IP address (%s), saying what to do', (origin) => {
    expect(() => relyingParty(origin)).toThrow(/host name.*PUBLIC_URL/);
  });
});
