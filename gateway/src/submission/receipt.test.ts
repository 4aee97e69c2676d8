// Signed receipts through a listening gateway: every 201 carries one, checked here with Node's own
// Ed25519 (node:crypto, not jose and not Intake's helpers) against the keys the gateway publishes
// at /.well-known/jwks.json, and against the submission as stored.
import { createHash, createPublicKey, generateKeyPairSync, verify as cryptoVerify } from 'node:crypto';
import { FormSchema, SubmissionSchema } from '@intake/shared/entities';
import { makeForm, makeSite, testDriverName } from '@intake/shared/test';
import { pdf, png } from '@intake/test-files';
import { send, startTestGateway } from '../test/harness.js';

type Harness = Awaited<ReturnType<typeof startTestGateway>>;
interface Jwks {
  keys: { kty: string; crv: string; x: string; kid: string }[];
}
interface Answer {
  id: string;
  createdAt: string;
  files: { field: string; name: string; size: number; sha256: string }[];
  receipt: string;
}

let harness: Harness;

beforeAll(async () => {
  harness = await startTestGateway();
});

afterAll(async () => {
  await harness.close();
});

async function publishedKeys(url: string): Promise<Jwks> {
  const response = await fetch(`${url}/.well-known/jwks.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as Jwks;
}

/** The receipt's header and payload when its signature verifies with a published key; null otherwise. */
function verified(receipt: string, jwks: Jwks): { header: Record<string, unknown>; payload: unknown } | null {
  const [header, payload, signature] = receipt.split('.') as [string, string, string];
  const protectedHeader = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
  const jwk = jwks.keys.find((key) => key.kid === protectedHeader.kid);
  if (protectedHeader.alg !== 'EdDSA' || !jwk) {
    return null;
  }
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  if (!cryptoVerify(null, Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))) {
    return null;
  }
  return { header: protectedHeader, payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) };
}

/**
 * RFC 8785 for the values these tests send (objects, arrays, ASCII strings, integers): keys sorted
 * by code unit, no whitespace. Written here so the check does not rest on the library under test.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

async function storedData(id: string): Promise<Record<string, unknown>> {
  const row = await harness.services.db.em.fork().findOneOrFail(SubmissionSchema, id);
  return row.data;
}

describe(`receipts on ${testDriverName()}`, () => {
  it('signs a JSON submission: id, form, site, time and the digest of the stored data', async () => {
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    const json = { name: 'Ada', age: 36, tags: ['b', 'a'], address: { zip: '1000', city: 'Bruxelles' } };
    const response = await send(harness.gateway.url, form.code, {
      apiKey: harness.services.config.apiKey,
      token,
      json,
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as Answer;

    const jwks = await publishedKeys(harness.gateway.url);
    const receipt = verified(answer.receipt, jwks);
    expect(receipt?.header).toEqual({ alg: 'EdDSA', kid: jwks.keys[0]!.kid, typ: 'intake-receipt+jws' });
    expect(receipt?.payload).toEqual({
      submissionId: answer.id,
      formCode: form.code,
      siteId: site.id,
      createdAt: answer.createdAt,
      dataSha256: sha256(canonical(json)),
      files: [],
    });
    // Over the data as stored, whatever order the database keeps its keys in.
    expect(sha256(canonical(await storedData(answer.id)))).toBe(
      (receipt!.payload as Answer & { dataSha256: string }).dataSha256,
    );
    const row = await harness.services.db.em.fork().findOneOrFail(SubmissionSchema, answer.id);
    expect(row.receipt).toBe(answer.receipt);
  });

  it('names each file of a multipart submission: field, name, size and SHA-256', async () => {
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    const [scan, photo] = [pdf(), png()];
    const body = new FormData();
    body.append('name', 'Ada');
    body.append('scan', new Blob([new Uint8Array(scan)], { type: 'application/pdf' }), 'scan.pdf');
    body.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'photo.png');
    const response = await send(harness.gateway.url, form.code, {
      apiKey: harness.services.config.apiKey,
      token,
      body,
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as Answer;

    const receipt = verified(answer.receipt, await publishedKeys(harness.gateway.url));
    expect(receipt?.payload).toMatchObject({
      submissionId: answer.id,
      dataSha256: sha256(canonical({ name: 'Ada' })),
      files: [
        { field: 'scan', name: 'scan.pdf', size: scan.length, sha256: sha256(scan) },
        { field: 'photo', name: 'photo.png', size: photo.length, sha256: sha256(photo) },
      ],
    });
  });

  it('answers a replay of an Idempotency-Key with the same receipt', async () => {
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    const request = {
      apiKey: harness.services.config.apiKey,
      token,
      json: { order: '42' },
      headers: { 'Idempotency-Key': 'receipt-replay' },
    };
    const first = (await (await send(harness.gateway.url, form.code, request)).json()) as Answer;
    const replay = await send(harness.gateway.url, form.code, request);
    expect(replay.status).toBe(201);
    const second = (await replay.json()) as Answer;
    expect(second.id).toBe(first.id);
    expect(second.receipt).toBe(first.receipt);
    expect(verified(second.receipt, await publishedKeys(harness.gateway.url))).not.toBeNull();
  });

  it('signs on the transaction path too (a form with deliveries), and a duplicate answers the first receipt', async () => {
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    await harness.services.db.em
      .fork()
      .nativeUpdate(FormSchema, { id: form.id }, { notifyEmails: ['team@example.test'], duplicateWindowSeconds: 60 });
    const request = { apiKey: harness.services.config.apiKey, token, json: { message: 'same' } };
    const first = (await (await send(harness.gateway.url, form.code, request)).json()) as Answer;
    const again = (await (await send(harness.gateway.url, form.code, request)).json()) as Answer;
    expect(verified(first.receipt, await publishedKeys(harness.gateway.url))?.payload).toMatchObject({
      submissionId: first.id,
      dataSha256: sha256(canonical({ message: 'same' })),
    });
    expect(again.receipt).toBe(first.receipt);
  });

  it('fails for altered data and for a key that is not published', async () => {
    const { site, token } = await makeSite(harness.services);
    const form = await makeForm(harness.services, site);
    const json = { amount: '100' };
    const answer = (await (
      await send(harness.gateway.url, form.code, { apiKey: harness.services.config.apiKey, token, json })
    ).json()) as Answer;
    const jwks = await publishedKeys(harness.gateway.url);

    // A payload claiming other data keeps the signature of the original: it does not verify.
    const [header, payload, signature] = answer.receipt.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, dataSha256: sha256(canonical({ amount: '1000' })) }));
    expect(verified(`${header}.${forged.toString('base64url')}.${signature}`, jwks)).toBeNull();

    // The same receipt checked against another deployment's keys does not verify.
    const stranger = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as { x: string };
    const otherKeys = { keys: jwks.keys.map((key) => ({ ...key, x: stranger.x })) };
    expect(verified(answer.receipt, otherKeys)).toBeNull();
  });
});

describe(`receipts across a key rotation on ${testDriverName()}`, () => {
  it('keeps receipts of the retired key verifiable while it is published', async () => {
    const oldKey = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    const newKey = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    const before = await startTestGateway({ RECEIPT_SIGNING_KEY: JSON.stringify({ ...oldKey, kid: 'k-2026' }) });
    let oldReceipt: string;
    try {
      const { site, token } = await makeSite(before.services);
      const form = await makeForm(before.services, site);
      const answer = await send(before.gateway.url, form.code, {
        apiKey: before.services.config.apiKey,
        token,
        json: { a: '1' },
      });
      oldReceipt = ((await answer.json()) as Answer).receipt;
    } finally {
      await before.close();
    }

    const { d: _secret, ...oldPublic } = oldKey;
    const after = await startTestGateway({
      RECEIPT_SIGNING_KEY: JSON.stringify([
        { ...newKey, kid: 'k-2027' },
        { ...oldPublic, kid: 'k-2026', retiredAt: new Date().toISOString() },
      ]),
    });
    try {
      const jwks = await publishedKeys(after.gateway.url);
      expect(jwks.keys.map((key) => key.kid)).toEqual(['k-2027', 'k-2026']);
      expect(JSON.stringify(jwks)).not.toContain(newKey.d);
      expect(verified(oldReceipt, jwks)?.header).toMatchObject({ kid: 'k-2026' });

      const { site, token } = await makeSite(after.services);
      const form = await makeForm(after.services, site);
      const answer = await send(after.gateway.url, form.code, {
        apiKey: after.services.config.apiKey,
        token,
        json: { a: '2' },
      });
      expect(verified(((await answer.json()) as Answer).receipt, jwks)?.header).toMatchObject({ kid: 'k-2027' });
    } finally {
      await after.close();
    }
  });
});
