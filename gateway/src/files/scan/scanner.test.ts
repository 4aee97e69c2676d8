import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import type { Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '@intake/shared/errors';
import yazl from 'yazl';
import { clamdStatus, describeClamd, eicarBytes } from '../../test/clamd.js';
import { createClamScanner, createScanner, noopScanner } from './scanner.js';
import type { ScanVerdict } from './scanner.js';

const status = await clamdStatus();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'intake-scan-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, bytes: Buffer | string): Promise<string> {
  const filePath = path.join(dir, name);
  await writeFile(filePath, bytes);
  return filePath;
}

async function zip(entries: Record<string, Buffer>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(entries)) {
    archive.addBuffer(bytes, name);
  }
  archive.end();
  return buffer(archive.outputStream);
}

/** The AppError a promise rejects with (fails the test when it resolves or throws something else). */
async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

async function listen(server: Server, where: { path: string } | { port: 0; host: '127.0.0.1' }): Promise<void> {
  await new Promise<void>((resolve) => server.listen(where, resolve));
}

async function stop(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) {
    socket.destroy();
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A fake clamd on a free TCP port; `onConnection` plays its part. */
async function fakeClamd(onConnection: (socket: Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onConnection(socket);
  });
  await listen(server, { port: 0, host: '127.0.0.1' });
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('no TCP address');
  }
  return { port: address.port, close: () => stop(server, sockets) };
}

/** A port nothing listens on: bound, then released. */
async function freePort(): Promise<number> {
  const fake = await fakeClamd(() => {});
  await fake.close();
  return fake.port;
}

describe('noopScanner', () => {
  it('lets every file through (CLAMAV_ENABLED=false)', async () => {
    await expect(noopScanner.scanFile('/nonexistent')).resolves.toBeUndefined();
    expect(createScanner({ enabled: false })).toBe(noopScanner);
  });
});

describe('ClamAV scanner without a working clamd (fails closed)', () => {
  it('answers scanner_unavailable with Retry-After when nothing listens on the port', async () => {
    const verdicts: ScanVerdict[] = [];
    const scanner = createClamScanner({
      host: '127.0.0.1',
      port: await freePort(),
      onScanned: (_ms, verdict) => verdicts.push(verdict),
    });
    const error = await appError(scanner.scanFile(await file('clean.txt', 'hello')));
    expect(error).toMatchObject({ code: 'scanner_unavailable', status: 503, retryAfter: 30 });
    expect(verdicts).toEqual(['error']);
    await expect(scanner.ping()).rejects.toMatchObject({ code: 'scanner_unavailable' });
  });

  it('answers scanner_unavailable when the socket does not exist', async () => {
    const scanner = createClamScanner({ socket: path.join(dir, 'no-clamd.sock') });
    const error = await appError(scanner.scanFile(await file('clean.txt', 'hello')));
    expect(error.code).toBe('scanner_unavailable');
  });

  it('gives up at the deadline when clamd accepts but never answers', async () => {
    const fake = await fakeClamd((socket) => socket.resume());
    try {
      const scanner = createClamScanner({ host: '127.0.0.1', port: fake.port, timeoutMs: 300 });
      const started = Date.now();
      const error = await appError(scanner.scanFile(await file('clean.txt', 'hello')));
      expect(error.code).toBe('scanner_unavailable');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await fake.close();
    }
  });

  it('treats an answer that is not a verdict as unavailable', async () => {
    const fake = await fakeClamd((socket) => {
      socket.once('data', () => socket.end('HELLO THERE\0'));
    });
    try {
      const scanner = createClamScanner({ host: '127.0.0.1', port: fake.port });
      const error = await appError(scanner.scanFile(await file('clean.txt', 'hello')));
      expect(error.code).toBe('scanner_unavailable');
    } finally {
      await fake.close();
    }
  });

  it('does not accept an OK that comes before the whole file was sent', async () => {
    // The fake reads nothing, so our writes stall on backpressure while its OK arrives.
    const fake = await fakeClamd((socket) => {
      socket.pause();
      socket.write('stream: OK\0');
    });
    try {
      const scanner = createClamScanner({ host: '127.0.0.1', port: fake.port, timeoutMs: 5000 });
      const big = await file('big.bin', Buffer.alloc(8 * 1024 * 1024, 0x61));
      const error = await appError(scanner.scanFile(big));
      expect(error.code).toBe('scanner_unavailable');
    } finally {
      await fake.close();
    }
  });

  it('refuses new scans once closed', async () => {
    const scanner = createClamScanner({ host: '127.0.0.1', port: await freePort() });
    await scanner.close();
    const error = await appError(scanner.scanFile(await file('clean.txt', 'hello')));
    expect(error.code).toBe('scanner_unavailable');
  });

  it('lets a missing temporary file surface as an internal error, not as the scanner', async () => {
    const scanner = createClamScanner({ host: '127.0.0.1', port: await freePort() });
    const error = await scanner.scanFile(path.join(dir, 'gone.txt')).catch((reason: unknown) => reason);
    expect(error).not.toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'ENOENT' });
  });
});

describeClamd(status, 'ClamAV scanner against a real clamd', ({ target, tcp }) => {
  const verdicts: ScanVerdict[] = [];
  const scanner = createClamScanner({ ...target, onScanned: (_ms, verdict) => verdicts.push(verdict) });

  it('answers PING', async () => {
    await expect(scanner.ping()).resolves.toBeUndefined();
  });

  it('passes a clean file and reports the verdict', async () => {
    verdicts.length = 0;
    await expect(
      scanner.scanFile(await file('clean.txt', 'Hello, this is a harmless file.\n')),
    ).resolves.toBeUndefined();
    expect(verdicts).toEqual(['clean']);
  });

  it('passes an empty file', async () => {
    await expect(scanner.scanFile(await file('empty.txt', ''))).resolves.toBeUndefined();
  });

  it('flags EICAR as text with file_infected, without naming the signature to the client', async () => {
    verdicts.length = 0;
    const error = await appError(scanner.scanFile(await file('eicar.txt', eicarBytes())));
    expect(error).toMatchObject({ code: 'file_infected', status: 400 });
    expect(error.detail).toBe('The file was flagged by the virus scanner.');
    expect(String((error.cause as Error).message)).toMatch(/^clamd signature: \S+/);
    expect(verdicts).toEqual(['infected']);
  });

  it('flags EICAR at the end of a large file (the whole stream is scanned)', async () => {
    const bytes = Buffer.concat([Buffer.alloc(5 * 1024 * 1024, 0x41), eicarBytes()]);
    const error = await appError(scanner.scanFile(await file('tail.bin', bytes)));
    expect(error.code).toBe('file_infected');
  });

  it('flags EICAR inside a zip', async () => {
    const archive = await zip({ 'readme.txt': Buffer.from('hello'), 'eicar.com': eicarBytes() });
    const error = await appError(scanner.scanFile(await file('eicar.zip', archive)));
    expect(error.code).toBe('file_infected');
  });

  it('flags EICAR inside a zip inside a zip', async () => {
    const inner = await zip({ 'eicar.com': eicarBytes() });
    const outer = await zip({ 'docs/inner.zip': inner, 'notes.txt': Buffer.from('nothing here') });
    const error = await appError(scanner.scanFile(await file('nested.zip', outer)));
    expect(error.code).toBe('file_infected');
  });

  it('passes a clean zip', async () => {
    const archive = await zip({ 'a.txt': Buffer.from('alpha'), 'b.txt': Buffer.from('beta') });
    await expect(scanner.scanFile(await file('clean.zip', archive))).resolves.toBeUndefined();
  });

  it('fails closed when the file is over clamd StreamMaxLength (30M in .ci/clamd.sh)', async () => {
    const huge = path.join(dir, 'huge.bin');
    await writeFile(huge, '');
    await truncate(huge, 30 * 1024 * 1024 + 1);
    const error = await appError(scanner.scanFile(huge));
    expect(error).toMatchObject({ code: 'scanner_unavailable', retryAfter: 30 });
  });

  it('works again once clamd comes back, with the same scanner', async () => {
    // A unix-socket relay stands in for "clamd": absent first, then forwarding to the real one.
    const relayPath = path.join(dir, 'relay.sock');
    const recovering = createClamScanner({ socket: relayPath });
    const eicar = await file('eicar-again.txt', eicarBytes());
    expect((await appError(recovering.scanFile(eicar))).code).toBe('scanner_unavailable');

    const sockets = new Set<Socket>();
    const relay = createServer((client) => {
      const upstream = target.socket ? connect(target.socket) : connect(target.port ?? 3310, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await listen(relay, { path: relayPath });
    try {
      expect((await appError(recovering.scanFile(eicar))).code).toBe('file_infected');
      await expect(recovering.scanFile(await file('clean-again.txt', 'fine'))).resolves.toBeUndefined();
    } finally {
      await stop(relay, sockets);
    }
  });

  it('scans over each listener clamd offers (unix socket and TCP)', async () => {
    // .ci/clamd.sh listens on both; other setups may offer one only.
    const targets = [target, ...(tcp && target.socket ? [tcp] : [])];
    for (const where of targets) {
      const each = createClamScanner(where);
      expect((await appError(each.scanFile(await file('eicar-each.txt', eicarBytes())))).code).toBe('file_infected');
      await expect(each.scanFile(await file('clean-each.txt', 'fine'))).resolves.toBeUndefined();
    }
  });
});
