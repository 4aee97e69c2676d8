// A raw HTTP exchange for the services' tests: what fetch will not send.
import { once } from 'node:events';
import { connect } from 'node:net';

/**
 * Sends raw bytes on a fresh connection and reads the answer up to the server's close: for requests
 * fetch refuses to send, such as a malformed header line.
 */
export async function rawRequest(origin: string, request: string): Promise<Response> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(request);
  await once(socket, 'close');
  const raw = Buffer.concat(chunks).toString('utf8');
  const headEnd = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = raw.slice(0, headEnd).split('\r\n');
  const headers = headerLines.map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()] as [string, string];
  });
  return new Response(raw.slice(headEnd + 4), { status: Number(statusLine.split(' ')[1]), headers });
}
