import { DEFAULT_ALLOWED_MIME_TYPES, extensionsForMimeType, isKnownMimeType, mimeTypeForExtension } from './index.js';

describe('mime types', () => {
  it('lists the 12 default types of the contract, once each', () => {
    expect(DEFAULT_ALLOWED_MIME_TYPES).toHaveLength(12);
    expect(new Set(DEFAULT_ALLOWED_MIME_TYPES).size).toBe(12);
  });

  it('names every type by at least one extension', () => {
    for (const type of DEFAULT_ALLOWED_MIME_TYPES) {
      expect(extensionsForMimeType(type).length).toBeGreaterThan(0);
    }
    expect(extensionsForMimeType('image/jpeg')).toEqual(['jpg', 'jpeg']);
  });

  it('knows only the canonical spelling of the 12 types', () => {
    expect(isKnownMimeType('application/vnd.rar')).toBe(true);
    expect(isKnownMimeType('application/x-rar-compressed')).toBe(false);
    expect(isKnownMimeType('IMAGE/PNG')).toBe(false);
    expect(isKnownMimeType('text/plain; charset=utf-8')).toBe(false);
    expect(isKnownMimeType('text/html')).toBe(false);
  });

  it('maps extensions without touching prototype members', () => {
    expect(mimeTypeForExtension('jpeg')).toBe('image/jpeg');
    expect(mimeTypeForExtension('txt')).toBe('text/plain');
    expect(mimeTypeForExtension('csv')).toBeUndefined();
    expect(mimeTypeForExtension('constructor')).toBeUndefined();
    expect(mimeTypeForExtension('__proto__')).toBeUndefined();
  });
});
