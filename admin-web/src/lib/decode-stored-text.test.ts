import { describe, expect, it } from '@jest/globals';
import { decodeStoredText } from './decode-stored-text.js';

describe('decodeStoredText', () => {
  it('decodes the escapes the sanitiser writes', () => {
    expect(decodeStoredText('Tom &amp; Jerry')).toBe('Tom & Jerry');
    expect(decodeStoredText('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('<script>alert(1)</script>');
    expect(decodeStoredText('a&nbsp;b')).toBe('a\u00A0b');
  });

  it('decodes quotes and numeric references', () => {
    expect(decodeStoredText('&quot;x&quot; &#39;y&#39; &apos;z&apos;')).toBe("\"x\" 'y' 'z'");
    expect(decodeStoredText('&#233;t&#xE9; &#x1F600;')).toBe('été 😀');
  });

  it('decodes once: an escaped entity stays an entity', () => {
    expect(decodeStoredText('&amp;lt;b&amp;gt;')).toBe('&lt;b&gt;');
  });

  it('leaves unknown names, bare ampersands and invalid code points as written', () => {
    expect(decodeStoredText('R&D &copy; &unknown; & &#0; &#xD800; &#x110000;')).toBe(
      'R&D &copy; &unknown; & &#0; &#xD800; &#x110000;',
    );
    expect(decodeStoredText('&constructor; &__proto__;')).toBe('&constructor; &__proto__;');
  });

  it('keeps white space and plain text untouched', () => {
    expect(decodeStoredText('  two\n lines ')).toBe('  two\n lines ');
  });

  it('turns null and undefined into an empty string', () => {
    expect(decodeStoredText(null)).toBe('');
    expect(decodeStoredText(undefined)).toBe('');
  });
});
