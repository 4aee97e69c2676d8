// The Content-Disposition of a download, through a real Koa context, without a database or a server.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { downloadNames, setAttachment, storedNameAsSent } from './content-disposition.js';

describe('content disposition', () => {
  /** The header a download of a file stored under `storedName` gets, through a real Koa context. */
  const header = (storedName: string): string => {
    const request = new IncomingMessage(new Socket());
    const ctx = new Koa().createContext(request, new ServerResponse(request));
    setAttachment(ctx, storedName);
    return ctx.response.get('Content-Disposition');
  };

  it('gives an ASCII fallback that cannot break the header, and the exact name in RFC 5987 form', () => {
    // A name that is its own safe fallback needs no `filename*`.
    expect(header('report.pdf')).toBe('attachment; filename="report.pdf"');
    expect(header('a"b\\c%d\r\ne.txt')).toBe(
      `attachment; filename="a_b_c_d__e.txt"; filename*=UTF-8''a%22b%5Cc%25d%0D%0Ae.txt`,
    );
    expect(header("l'été (1)*.txt")).toBe(
      `attachment; filename="l'ete (1)*.txt"; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%281%29%2A.txt`,
    );
    expect(header('写真.png')).toBe(`attachment; filename="__.png"; filename*=UTF-8''%E5%86%99%E7%9C%9F.png`);
    expect(header('')).toBe('attachment; filename="download"');
    expect(header('\ud800x')).toMatch(/filename\*=UTF-8''%EF%BF%BDx$/);
    expect(downloadNames('a\u0000b.pdf')).toEqual({ name: 'a\u0000b.pdf', fallback: 'a_b.pdf' });
  });

  it('saves a download under the name as sent: the stored, escaped name decoded once', () => {
    expect(storedNameAsSent('Terms &amp; Conditions.pdf')).toBe('Terms & Conditions.pdf');
    expect(storedNameAsSent('&lt;b&gt; &quot;x&quot; O&#39;Brien.pdf')).toBe('<b> "x" O\'Brien.pdf');
    expect(storedNameAsSent('a&amp;lt;b.pdf')).toBe('a&lt;b.pdf');
    expect(header('O&#39;Brien.pdf')).toBe(`attachment; filename="O'Brien.pdf"`);
  });
});
