// A raw HTTP exchange for the services' tests: what fetch will not send.
import { once } from 'node:events';
import { connect } from 'node:net';

/** Writes raw bytes on a fresh connection in one write and returns all it reads up to the server's close. */
async function exchangeRaw(origin: string, request: string): Promise<Buffer> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(request);
  await once(socket, 'close');
  return Buffer.concat(chunks);
}

/** One response off the front of `raw` (its body by Content-Length, else to the end) and what follows it. */
function readResponse(raw: Buffer): { response: Response; rest: Buffer } {
  const headEnd = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = raw.subarray(0, headEnd).toString('utf8').split('\r\n');
  const headers = headerLines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()] as [string, string];
  });
  const length = headers.find(([name]) => name.toLowerCase() === 'content-length')?.[1];
  const bodyEnd = length === undefined ? raw.length : headEnd + 4 + Number(length);
  const body = raw.subarray(headEnd + 4, bodyEnd).toString('utf8');
  return {
    response: new Response(body, { status: Number(statusLine.split(' ')[1]), headers }),
    rest: raw.subarray(bodyEnd),
  };
}

/**
 * Sends raw bytes on a fresh connection and reads the answer up to the server's close: for requests
 * fetch refuses to send, such as a malformed header line.
 */
export async function rawRequest(origin: string, request: string): Promise<Response> {
  return readResponse(await exchangeRaw(origin, request)).response;
}

/** Like `rawRequest`, for bytes holding several requests: every response read, in order, up to the close. */
export async function rawResponses(origin: string, requests: string): Promise<Response[]> {
  const responses: Response[] = [];
  let rest = await exchangeRaw(origin, requests);
  while (rest.includes('\r\n\r\n')) {
    const next = readResponse(rest);
    responses.push(next.response);
    rest = next.rest;
  }
  return responses;
}
