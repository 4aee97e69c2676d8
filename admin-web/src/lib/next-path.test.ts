import { describe, expect, it } from '@jest/globals';
import { safeNextPath, signInPathReturningTo } from './next-path.js';

describe('signInPathReturningTo', () => {
  it('remembers the page, its query and its fragment', () => {
    expect(signInPathReturningTo({ pathname: '/sites/1/forms', search: '?a=1', hash: '#x' })).toBe(
      '/sign-in?next=%2Fsites%2F1%2Fforms%3Fa%3D1%23x',
    );
  });

  it('remembers nothing for the start page or the sign-in page itself', () => {
    expect(signInPathReturningTo({ pathname: '/', search: '', hash: '' })).toBe('/sign-in');
    expect(signInPathReturningTo({ pathname: '/sign-in', search: '?next=%2Fx', hash: '' })).toBe('/sign-in');
  });
});

describe('safeNextPath', () => {
  it('follows a path on this origin', () => {
    expect(safeNextPath('/sites/1/forms/2/settings?tab=a#b')).toBe('/sites/1/forms/2/settings?tab=a#b');
  });

  it.each([
    null,
    '',
    'sites',
    'https://evil.example/x',
    '//evil.example/x',
    '/\\evil.example/x',
    '/\t/evil.example/x',
    '/\n/evil.example',
    'javascript:alert(1)',
    '/sign-in?next=/x',
    '/.//evil.example/x',
    '/%2e//evil.example/x',
  ])('goes to the sites instead of %p', (next) => {
    expect(safeNextPath(next)).toBe('/sites');
  });
});
