// Signed download links, without a database or a server.
import { createDownloadLinks } from './download-link.js';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const JWT_SECRET = 'a-jwt-secret-for-tests-only-0123456789';

describe('download links', () => {
  it('download links verify only for their file, signature and time', () => {
    const links = createDownloadLinks({
      jwtSecret: JWT_SECRET,
      ttlSeconds: 300,
      publicOrigin: () => 'http://127.0.0.1:4000/',
    });
    const url = new URL(links.urlFor(ID));
    expect(url.origin + url.pathname).toBe(`http://127.0.0.1:4000/files/${ID}`);
    const expires = url.searchParams.get('expires');
    const sig = url.searchParams.get('sig');
    expect(links.verify(ID, expires, sig)).toBe(true);
    expect(links.verify(ID, expires, sig, new Date(Date.now() + 301_000))).toBe(false);
    expect(links.verify(ID.replace('0f', '1f'), expires, sig)).toBe(false);
    expect(links.verify(ID, String(Number(expires) + 1), sig)).toBe(false);
    expect(links.verify(ID, [expires], sig)).toBe(false);
    expect(links.verify(ID, expires, `${sig}=`)).toBe(false);
  });
});
