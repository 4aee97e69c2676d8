import { clientErrorResponse } from './client-error.js';

function parse(raw: string) {
  const [head, body] = raw.split('\r\n\r\n') as [string, string];
  const [statusLine, ...headers] = head.split('\r\n');
  const length = headers.find((line) => line.startsWith('Content-Length: '))?.slice('Content-Length: '.length);
  return { statusLine, headers, length: Number(length), body, problem: JSON.parse(body) as Record<string, unknown> };
}

describe('the answer to a request the HTTP parser refused', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 'HTTP/1.1 431 Request Header Fields Too Large', 'headers_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 'HTTP/1.1 408 Request Timeout', 'body_timeout'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 'HTTP/1.1 413 Payload Too Large', 'payload_too_large'],
    ['HPE_INVALID_METHOD', 'HTTP/1.1 400 Bad Request', 'request_invalid'],
    [undefined, 'HTTP/1.1 400 Bad Request', 'request_invalid'],
  ])('%s: %s with %s', (errorCode, statusLine, code) => {
    const answer = parse(clientErrorResponse(errorCode));
    expect(answer.statusLine).toBe(statusLine);
    expect(answer.headers).toEqual(
      expect.arrayContaining(['Content-Type: application/problem+json', 'Connection: close']),
    );
    expect(answer.length).toBe(Buffer.byteLength(answer.body));
    expect(answer.problem).toEqual(
      expect.objectContaining({ code, status: Number(statusLine.split(' ')[1]), type: `urn:intake:problem:${code}` }),
    );
  });
});
