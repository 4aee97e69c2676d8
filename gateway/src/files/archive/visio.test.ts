import { describe, expect, it } from '@jest/globals';
import { isAppError } from '@intake/shared/errors';
import { visioCompressLiterals } from '@intake/test-files';
import { inflateVisio } from './visio.js';

describe('inflateVisio', () => {
  it('reads literals and references into the shifted 4,096-byte window, overlapping ones too', () => {
    // Flags 0b0111: three literals, then a reference to window position 0 (stored as 0xFEE) for 6 bytes.
    const compressed = Buffer.from([0x07, 0x61, 0x62, 0x63, 0xee, 0xf3]);
    expect(inflateVisio(compressed).toString('latin1')).toBe('abcabcabc');
  });

  it('inflates the literal-only form the test samples write', () => {
    const data = Buffer.from('Visio keeps whole compound files in its streams.');
    expect(inflateVisio(visioCompressLiterals(data))).toEqual(data);
  });

  it('stops with archive_bomb past its limit', () => {
    // One literal, then zero bytes: references that copy 3 bytes each from the window.
    const bomb = Buffer.concat([Buffer.from([0x01, 0x41]), Buffer.alloc(20_000, 0)]);
    let code = '';
    try {
      inflateVisio(bomb, 10_000);
    } catch (error) {
      code = isAppError(error) ? error.code : 'other';
    }
    expect(code).toBe('archive_bomb');
  });
});
