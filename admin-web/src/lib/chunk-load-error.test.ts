import { describe, expect, it } from '@jest/globals';
import { isChunkLoadError } from './chunk-load-error.js';

describe('isChunkLoadError', () => {
  it.each([
    'Failed to fetch dynamically imported module: https://admin.example.com/assets/webhooks-page-Bx1.js',
    'error loading dynamically imported module: https://admin.example.com/assets/webhooks-page-Bx1.js',
    'Importing a module script failed.',
    'Unable to preload CSS for https://admin.example.com/assets/app-layout-Cq2.css',
  ])('recognises a chunk that could not be fetched: %s', (message) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(true);
  });

  it('leaves other errors to be shown as they are', () => {
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isChunkLoadError(new Error('[Network] Failed to fetch'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});
