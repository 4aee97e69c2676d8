import { checkUtf8Text } from './text.js';
import { makeSampleDir, removeSampleDir, writeSample } from '@intake/test-files';

let dir: string;

beforeAll(async () => {
  dir = await makeSampleDir();
});

afterAll(async () => {
  await removeSampleDir(dir);
});

async function check(name: string, bytes: Buffer) {
  return checkUtf8Text(await writeSample(dir, name, bytes));
}

describe('checkUtf8Text', () => {
  it('accepts UTF-8, empty files and a BOM', async () => {
    await expect(check('a.txt', Buffer.from('héllo 👋\n', 'utf8'))).resolves.toEqual({ ok: true });
    await expect(check('b.txt', Buffer.alloc(0))).resolves.toEqual({ ok: true });
    await expect(check('c.txt', Buffer.from('\uFEFFhi', 'utf8'))).resolves.toEqual({ ok: true });
  });

  it('tells NUL from invalid UTF-8', async () => {
    await expect(check('d.txt', Buffer.from([0x61, 0x00]))).resolves.toEqual({ ok: false, reason: 'nul' });
    await expect(check('e.txt', Buffer.from([0x61, 0xed, 0xa0, 0x80]))).resolves.toEqual({
      ok: false,
      reason: 'invalid_utf8',
    });
    await expect(check('f.txt', Buffer.from([0xf4, 0x90, 0x80, 0x80]))).resolves.toEqual({
      ok: false,
      reason: 'invalid_utf8',
    }); // > U+10FFFF
  });

  it('decodes a 4-byte character split across every possible chunk boundary', async () => {
    for (const before of [65_533, 65_534, 65_535]) {
      const bytes = Buffer.concat([Buffer.alloc(before, 0x61), Buffer.from('😀', 'utf8'), Buffer.alloc(10, 0x62)]);
      await expect(check(`g${before}.txt`, bytes)).resolves.toEqual({ ok: true });
    }
  });

  it('propagates a read error instead of calling it invalid text', async () => {
    await expect(checkUtf8Text(`${dir}/missing.txt`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
