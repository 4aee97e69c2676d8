import { contentHash } from './content-rules.js';
import { spamVerdict } from './spam-verdict.js';

const FILE = { field: 'cv', name: 'cv.txt', mimeType: 'text/plain', sha256: 'a'.repeat(64) };
const CLEAN = { fields: { name: 'Ada', message: 'Hello' }, files: [FILE], captchaUnavailable: false };

describe('spam verdict', () => {
  it('is not spam and has no duplicate filter when the form sets no rule and no window', async () => {
    expect(await spamVerdict({}, CLEAN)).toEqual({ spamReason: undefined, duplicateFilter: null });
  });

  it('takes an unreachable CAPTCHA provider as spam before the content rules', async () => {
    const verdict = await spamVerdict(
      { honeypotFields: ['name'], maxLinks: 0 },
      { ...CLEAN, captchaUnavailable: true },
    );
    expect(verdict.spamReason).toBe('captcha_unavailable');
  });

  it('applies the content rules: honeypot (a file in it too), links, blocked words', async () => {
    expect(
      (await spamVerdict({ honeypotFields: ['website'] }, { ...CLEAN, fields: { website: 'x' } })).spamReason,
    ).toBe('honeypot');
    expect((await spamVerdict({ honeypotFields: ['cv'] }, CLEAN)).spamReason).toBe('honeypot');
    expect((await spamVerdict({ maxLinks: 1 }, { ...CLEAN, fields: { m: 'http://a www.b' } })).spamReason).toBe(
      'links',
    );
    expect((await spamVerdict({ blockedWords: ['hello'] }, CLEAN)).spamReason).toBe('blocked_word');
    expect((await spamVerdict({ blockedWords: ['casino'], maxLinks: 5 }, CLEAN)).spamReason).toBeUndefined();
  });

  it('keys the duplicate filter by the values, the files and the verdict, within the form window', async () => {
    const good = await spamVerdict({ duplicateWindowSeconds: 60 }, CLEAN);
    expect(good.duplicateFilter).toEqual({
      contentHash: contentHash({ fields: CLEAN.fields, files: [FILE], spamReason: undefined }),
      windowSeconds: 60,
    });
    const reordered = await spamVerdict(
      { duplicateWindowSeconds: 60 },
      { ...CLEAN, fields: { message: 'Hello', name: 'Ada' } },
    );
    expect(reordered.duplicateFilter).toEqual(good.duplicateFilter);
    const renamed = await spamVerdict(
      { duplicateWindowSeconds: 60 },
      { ...CLEAN, files: [{ ...FILE, name: 'b.txt' }] },
    );
    expect(renamed.duplicateFilter?.contentHash).not.toBe(good.duplicateFilter?.contentHash);
    const asSpam = await spamVerdict({ duplicateWindowSeconds: 60 }, { ...CLEAN, captchaUnavailable: true });
    expect(asSpam.duplicateFilter?.contentHash).not.toBe(good.duplicateFilter?.contentHash);
  });

  it('has no duplicate filter when the window is null', async () => {
    expect((await spamVerdict({ duplicateWindowSeconds: null, maxLinks: 0 }, CLEAN)).duplicateFilter).toBeNull();
  });
});
