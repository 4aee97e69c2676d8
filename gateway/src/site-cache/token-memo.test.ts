import { randomBytes } from 'node:crypto';
import {
  createSiteTokenCodec,
  generateControlCode,
  isSiteTokenError,
  type SiteTokenCodec,
} from '@intake/shared/site-token';
import { memoizeTokenDecoding } from './token-memo.js';

function countingCodec(): { codec: SiteTokenCodec; decodes: () => number } {
  const real = createSiteTokenCodec({ jwtSecret: randomBytes(32).toString('hex'), encryptionKey: randomBytes(32) });
  let count = 0;
  return {
    codec: {
      issue: real.issue,
      decode(token) {
        count += 1;
        return real.decode(token);
      },
    },
    decodes: () => count,
  };
}

const SITE = '0b6c1d5e-8f1a-4c1e-9d7a-2f3b4c5d6e7f';

describe('memoised site-token decoding', () => {
  it('decodes a token once and answers repeats from memory, with the same claims', () => {
    const { codec, decodes } = countingCodec();
    const memo = memoizeTokenDecoding(codec);
    const controlCode = generateControlCode();
    const token = memo.issue(SITE, controlCode);
    expect(memo.decode(token)).toEqual({ siteId: SITE, controlCode });
    expect(memo.decode(token)).toEqual({ siteId: SITE, controlCode });
    expect(decodes()).toBe(1);
  });

  it('never remembers a failure: a bad token is decoded, and refused, every time', () => {
    const { codec, decodes } = countingCodec();
    const memo = memoizeTokenDecoding(codec);
    const forged = `${memo.issue(SITE, generateControlCode()).slice(0, -4)}AAAA`;
    for (let i = 0; i < 2; i++) {
      let caught: unknown;
      try {
        memo.decode(forged);
      } catch (error) {
        caught = error;
      }
      expect(isSiteTokenError(caught)).toBe(true);
    }
    expect(decodes()).toBe(2);
  });

  it('keeps at most its bound of tokens, the oldest out first', () => {
    const { codec, decodes } = countingCodec();
    const memo = memoizeTokenDecoding(codec, 2);
    const [a, b, c] = [0, 1, 2].map(() => memo.issue(SITE, generateControlCode())) as [string, string, string];
    memo.decode(a);
    memo.decode(b);
    memo.decode(c);
    memo.decode(c);
    memo.decode(a);
    expect(decodes()).toBe(4);
  });

  it('hands out copies: a caller changing its claims changes nothing for the next', () => {
    const { codec } = countingCodec();
    const memo = memoizeTokenDecoding(codec);
    const token = memo.issue(SITE, generateControlCode());
    const first = memo.decode(token);
    first.siteId = 'changed';
    expect(memo.decode(token).siteId).toBe(SITE);
  });
});
