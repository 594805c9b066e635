import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@app/common';
import { DashboardSecret } from './dashboard-secret.js';
import { FormTokens } from './form-tokens.js';

const SECRET = 'x'.repeat(32);
const tokensWith = (env: Record<string, string>) => new FormTokens(new DashboardSecret(loadConfig(env)));

describe(FormTokens.name, () => {
  const sut = tokensWith({ DASHBOARD_SECRET: SECRET });

  it('accepts the token signed for the cookie’s nonce, and nothing else', () => {
    const nonce = sut.newNonce();
    expect(sut.verify(nonce, sut.tokenFor(nonce))).toBe(true);
    // A planted cookie echoed in the form, another nonce's token, another key's token, no cookie.
    expect(sut.verify(nonce, nonce)).toBe(false);
    expect(sut.verify(nonce, sut.tokenFor(sut.newNonce()))).toBe(false);
    expect(sut.verify(nonce, tokensWith({ DASHBOARD_SECRET: 'y'.repeat(32) }).tokenFor(nonce))).toBe(false);
    expect(sut.verify(undefined, sut.tokenFor(nonce))).toBe(false);
    expect(sut.verify('a', sut.tokenFor('a'))).toBe(false);
  });

  it('agrees across instances with the same DASHBOARD_SECRET', () => {
    const nonce = sut.newNonce();
    expect(tokensWith({ DASHBOARD_SECRET: SECRET }).verify(nonce, sut.tokenFor(nonce))).toBe(true);
  });

  it('needs DASHBOARD_SECRET in production, and one of at least 32 characters anywhere', () => {
    expect(() => tokensWith({ NODE_ENV: 'production' })).toThrow(/DASHBOARD_SECRET must be set in production/);
    expect(() => tokensWith({ DASHBOARD_SECRET: 'short' })).toThrow(/DASHBOARD_SECRET must be at least 32 characters/);
    expect(tokensWith({ NODE_ENV: 'production', DASHBOARD_SECRET: SECRET })).toBeInstanceOf(FormTokens);
  });
});
