import { describe, expect, it } from '@jest/globals';
import { returnPath, signInUrl } from './return-path.js';

describe('returnPath', () => {
  it.each([
    '/dashboard/webhooks',
    '/dashboard/webhooks/0b7c3c9e-3f0a-4d53-9a51-2f0c1b9f6e11',
    '/dashboard/usage?key=all',
    '/dashboard/imports/',
    '/dashboard/keys/0b7c3c9e-3f0a-4d53-9a51-2f0c1b9f6e11/roll',
    '/dashboard/usage?q=a%20b',
  ])('goes back to the dashboard page %s', (path) => {
    expect(returnPath(path)).toBe(path);
  });

  it.each([
    ['another site', 'https://evil.example/dashboard/keys'],
    ['a scheme-relative URL', '//evil.example/dashboard'],
    ['a double slash inside', '/dashboard//evil.example'],
    ['a backslash, which browsers read as a slash', '/dashboard/\\evil.example'],
    ['a path outside the dashboard', '/v1/units'],
    ['a look-alike prefix', '/dashboardx/keys'],
    ['a control character', '/dashboard/usage\r\nSet-Cookie: x=1'],
    ['a fragment', '/dashboard/usage#x'],
    ['the keys page every sign-in lands on', '/dashboard/keys'],
    ['the dashboard root', '/dashboard'],
    ['sign-in', '/dashboard/sign-in?next=/dashboard/usage'],
    ['sign-out', '/dashboard/sign-out'],
    ['sign-up', '/dashboard/sign-up'],
    ['something too long', `/dashboard/usage?${'a'.repeat(1100)}`],
    ['no text', ['/dashboard/usage']],
    ['a dot segment climbing out', '/dashboard/../v1/units'],
    ['a dot segment to the root', '/dashboard/..'],
    ['an escaped dot segment', '/dashboard/%2e%2e/v1/units'],
    ['a dot segment around the excluded pages', '/dashboard/./sign-in'],
    ['an escaped letter around the excluded pages', '/dashboard/%73ign-in'],
  ])('refuses %s', (_why, value) => {
    expect(returnPath(value)).toBeUndefined();
  });
});

describe('signInUrl', () => {
  it('says why and where back to only when there is cause, each encoded', () => {
    expect(signInUrl()).toBe('/dashboard/sign-in');
    expect(signInUrl('expired')).toBe('/dashboard/sign-in?reason=expired');
    expect(signInUrl(undefined, '/dashboard/usage?key=all')).toBe(
      '/dashboard/sign-in?next=%2Fdashboard%2Fusage%3Fkey%3Dall',
    );
  });
});
