// A local stand-in for the CAPTCHA providers' siteverify endpoints, speaking their real format: a
// form-encoded POST of `secret`, `response` and `remoteip`, answered with JSON `success`,
// `error-codes`, and for reCAPTCHA v3 `score`, `action` and `hostname`. What it answers depends on
// the visitor's answer the test sends, so one stub serves every case.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const STUB_SECRET = 'stub-secret-0x4AAAAAAA';

/** Answers the stub understands, as the `response` value. */
export const ANSWERS = {
  good: 'good-answer',
  bad: 'bad-answer',
  expired: 'expired-answer',
  /** reCAPTCHA v3: success with a score of 0.2. */
  lowScore: 'low-score-answer',
  /** reCAPTCHA v3: success with a score of 0.9. */
  highScore: 'high-score-answer',
  /** Answered only after `slowMs`. */
  slow: 'slow-answer',
  /** The provider's own failure: 500. */
  providerError: 'provider-error-answer',
} as const;

export interface VerifyRequest {
  path: string;
  contentType: string | undefined;
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}

export interface SiteverifyStub {
  url: string;
  requests: VerifyRequest[];
  /** Connections the stub accepted: kept-alive clients reuse them. */
  connections: number;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSiteverifyStub(slowMs = 3000): Promise<SiteverifyStub> {
  const requests: VerifyRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer(async (request, response) => {
    const form = new URLSearchParams(await readBody(request));
    const entry: VerifyRequest = {
      path: request.url ?? '',
      contentType: request.headers['content-type'],
      secret: form.get('secret'),
      response: form.get('response'),
      remoteip: form.get('remoteip'),
    };
    requests.push(entry);
    const reply = (body: Record<string, unknown>, status = 200) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const recaptcha = entry.path.includes('recaptcha');
    const success = {
      success: true,
      challenge_ts: new Date().toISOString(),
      hostname: 'shop.example',
      'error-codes': [],
    };
    if (entry.secret !== STUB_SECRET) {
      reply({ success: false, 'error-codes': ['invalid-input-secret'] });
    } else if (entry.response === null || entry.response === '') {
      reply({ success: false, 'error-codes': ['missing-input-response'] });
    } else if (entry.response === ANSWERS.good) {
      reply(recaptcha ? { ...success, score: 0.9, action: 'submit' } : success);
    } else if (entry.response === ANSWERS.highScore) {
      reply({ ...success, score: 0.9, action: 'submit' });
    } else if (entry.response === ANSWERS.lowScore) {
      reply({ ...success, score: 0.2, action: 'submit' });
    } else if (entry.response === ANSWERS.expired) {
      reply({ success: false, 'error-codes': ['timeout-or-duplicate'] });
    } else if (entry.response === ANSWERS.providerError) {
      reply({ success: false, 'error-codes': ['internal-error'] }, 500);
    } else if (entry.response === ANSWERS.slow) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        reply(success);
      }, slowMs);
      timers.add(timer);
    } else {
      reply({ success: false, 'error-codes': ['invalid-input-response'] });
    }
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const timer of timers) {
        clearTimeout(timer);
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on: a provider that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
