import fc from 'fast-check';
import { assertSafeFileName, cleanFileName, cutToUtf8Bytes, extensionOf, MAX_FILE_NAME_BYTES } from './file-name.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
// True when the string survives a UTF-8 round trip, i.e. no code point was split.
const wellFormed = (text: string): boolean => Buffer.from(text, 'utf8').toString('utf8') === text;

describe('cleanFileName', () => {
  it.each([
    ['a/b/c.pdf', 'c.pdf'],
    ['C:\\Users\\me\\report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['photos/', 'photos'],
    ['/', 'file'],
  ])('keeps the last path segment of %j', (raw, expected) => {
    expect(cleanFileName(raw)).toBe(expected);
  });

  it('removes a right-to-left override so the real extension shows', () => {
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
  });

  it('removes every bidirectional mark, embedding, override and isolate', () => {
    const bidi = '\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
    expect(cleanFileName(`re${bidi}port.pdf`)).toBe('report.pdf');
  });

  it('removes control characters and line separators (when called without the assertion)', () => {
    expect(cleanFileName('a\u0000b\u0009c\u007Fd\u0085e\u2028f.txt')).toBe('abcdef.txt');
  });

  it('trims and drops trailing dots and spaces', () => {
    expect(cleanFileName('  report.PDF. ')).toBe('report.PDF');
    expect(cleanFileName('notes.txt...')).toBe('notes.txt');
  });

  it.each(['', '   ', '...', '\u202E', '/\\/'])('falls back to `file` for %j', (raw) => {
    expect(cleanFileName(raw)).toBe('file');
  });

  it('keeps non-Latin names as they are', () => {
    expect(cleanFileName('Relevé de comptes – 2024 (copie) 📄.pdf')).toBe('Relevé de comptes – 2024 (copie) 📄.pdf');
    expect(cleanFileName('契約書.docx')).toBe('契約書.docx');
  });

  it('replaces a lone surrogate rather than storing invalid UTF-16', () => {
    expect(cleanFileName('a\uD800b.txt')).toBe('a\uFFFDb.txt');
  });

  it.each([
    ['2-byte', 'é'.repeat(150) + '.pdf', '.pdf'],
    ['3-byte', '文'.repeat(100) + '.docx', '.docx'],
    ['4-byte', '😀'.repeat(75) + '.txt', '.txt'],
  ])(
    'cuts a 300-byte %s name to at most 255 bytes on a code point boundary, keeping the extension',
    (_, raw, extension) => {
      expect(bytes(raw)).toBeGreaterThan(300);
      const cleaned = cleanFileName(raw);
      expect(bytes(cleaned)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
      expect(bytes(cleaned)).toBeGreaterThan(MAX_FILE_NAME_BYTES - 4);
      expect(wellFormed(cleaned)).toBe(true);
      expect(cleaned.endsWith(extension)).toBe(true);
    },
  );

  it('cuts a long name without an extension', () => {
    const cleaned = cleanFileName('文'.repeat(100));
    expect(cleaned).toBe('文'.repeat(85));
  });

  it('does not keep an absurdly long "extension" whole', () => {
    const cleaned = cleanFileName(`a.${'x'.repeat(300)}`);
    expect(bytes(cleaned)).toBe(MAX_FILE_NAME_BYTES);
  });

  it.each([
    ['<img src=x onerror=alert(1)>.png', '&lt;img src=x onerror=alert(1)&gt;.png'],
    ['say "hi".txt', 'say &quot;hi&quot;.txt'],
    ["O'Brien CV.pdf", 'O&#39;Brien CV.pdf'],
    ['Terms & Conditions.pdf', 'Terms &amp; Conditions.pdf'],
    ['a&lt;b.pdf', 'a&amp;lt;b.pdf'],
  ])('stores %j HTML-escaped as values are: %j', (raw, stored) => {
    expect(cleanFileName(raw)).toBe(stored);
  });

  it('cuts a long name with markup to 255 bytes after escaping, never inside a character reference', () => {
    const cleaned = cleanFileName(`${'<'.repeat(300)}.pdf`);
    expect(bytes(cleaned)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    expect(cleaned).toMatch(/^(&lt;)+\.pdf$/);
  });

  it('keeps a name of exactly 255 bytes', () => {
    const raw = `${'a'.repeat(251)}.pdf`;
    expect(cleanFileName(raw)).toBe(raw);
  });

  it('always returns a short, visible, well-formed single segment', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (raw) => {
        const cleaned = cleanFileName(raw);
        expect(cleaned.length).toBeGreaterThan(0);
        expect(bytes(cleaned)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
        expect(cleaned).not.toMatch(/[/\\\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u);
        expect(cleaned).not.toMatch(/[<>"']/u);
        expect(wellFormed(cleaned)).toBe(true);
      }),
    );
  });
});

describe('cutToUtf8Bytes', () => {
  it('never splits a code point', () => {
    expect(cutToUtf8Bytes('aé', 2)).toBe('a');
    expect(cutToUtf8Bytes('😀😀', 7)).toBe('😀');
    expect(cutToUtf8Bytes('abc', 0)).toBe('');
  });
});

describe('extensionOf', () => {
  it.each([
    ['report.PDF. ', 'pdf'],
    ['a.tar.gz', 'gz'],
    ['invoice.pdf.exe', 'exe'],
    ['photo.JPEG', 'jpeg'],
    ['README', ''],
    ['file.', ''],
    ['.pdf', 'pdf'],
    ['dir.d/file', ''],
    ['C:\\dir.v2\\notes.TXT', 'txt'],
  ])('%j → %j', (name, extension) => {
    expect(extensionOf(name)).toBe(extension);
  });

  it('lower-cases ASCII only: a Kelvin sign does not become `k`', () => {
    expect(extensionOf('x.\u212A')).toBe('\u212A');
  });
});

describe('assertSafeFileName', () => {
  it.each([
    ['NUL', 'report\u0000.pdf'],
    ['a newline', 'report\n.pdf'],
    ['a tab', 'report\t.pdf'],
    ['DEL', 'report\u007F.pdf'],
    ['a C1 control', 'report\u0085.pdf'],
  ])('refuses a name holding %s as a malformed body', (_, raw) => {
    expect(() => assertSafeFileName(raw)).toThrow(expect.objectContaining({ code: 'body_invalid', status: 400 }));
  });

  it('never echoes the name in the detail', () => {
    let detail = '';
    try {
      assertSafeFileName('secret-name\u0000.pdf');
    } catch (error) {
      detail = (error as Error).message;
    }
    expect(detail).not.toBe('');
    expect(detail).not.toContain('secret');
  });

  it.each(['report.pdf', 'Relevé 📄.pdf', 'invoice\u202Efdp.exe', 'a/b.txt'])(
    'accepts %j (cleaned later, not refused)',
    (raw) => {
      expect(() => assertSafeFileName(raw)).not.toThrow();
    },
  );
});
