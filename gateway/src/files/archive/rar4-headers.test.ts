import { describe, expect, it } from '@jest/globals';
import { isAppError } from '@intake/shared/errors';
import { buildRar4, RAR4_HOST_UNIX } from '../../test/rar-writer.js';
import { checkRar4UnixLinks } from './rar4-headers.js';

function verdict(bytes: Buffer): string {
  try {
    checkRar4UnixLinks(bytes);
    return 'ok';
  } catch (error) {
    return isAppError(error) ? error.code : 'other';
  }
}

describe('checkRar4UnixLinks', () => {
  const text = Buffer.from('Quarterly figures.\n');

  it('passes Unix files and folders and finds a symlink after them, past their data', () => {
    const plain = [
      { name: 'docs', directory: true, hostOs: RAR4_HOST_UNIX },
      { name: 'docs/a.txt', data: Buffer.alloc(70_000, 0x61), hostOs: RAR4_HOST_UNIX },
    ];
    expect(verdict(buildRar4(plain))).toBe('ok');
    expect(verdict(buildRar4([...plain, { name: 'link', symlinkTarget: 'docs/a.txt' }]))).toBe(
      'archive_path_traversal',
    );
  });

  it('reads the mode only for a Unix host: Windows attributes with the same bits are no link', () => {
    expect(verdict(buildRar4([{ name: 'a.txt', data: text, attributes: 0o120777 }]))).toBe('ok');
  });

  it('refuses headers that do not chain up', () => {
    const archive = buildRar4([{ name: 'a.txt', data: text, hostOs: RAR4_HOST_UNIX }]);
    const broken = Buffer.from(archive);
    broken.writeUInt16LE(3, 7 + 13 + 5); // the file header's HEAD_SIZE, below the 7-byte minimum
    expect(verdict(broken)).toBe('archive_unreadable');
    expect(verdict(Buffer.from('not a rar archive'))).toBe('archive_unreadable');
  });
});
