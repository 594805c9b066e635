import { describe, expect, it } from '@jest/globals';
import { loadConfig, ManualClock } from '@app/common';
import { DOWNLOAD_URL_TTL_MS, DownloadUrls } from './download-urls.js';
import { signedDownloadQueryOf } from './dto/download.query.js';

const TEAM = '00000000-0000-4000-8000-000000000001';
const ID = '7b9d1f3a-5c7e-4a9b-8d1f-3a5c7e9b1d3f';

describe(DownloadUrls.name, () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12, 0, 0, 1));
  const sut = new DownloadUrls(loadConfig({ NODE_ENV: 'test' }), clock);

  it('works for at least the full 15 minutes: the expiry is rounded up, and expiresAt is the URL’s', () => {
    const signed = sut.sign(TEAM, ID);
    const issued = clock.now();
    expect(signed.expires * 1000).toBeGreaterThanOrEqual(issued + DOWNLOAD_URL_TTL_MS);
    expect(new Date(signed.expiresAt).getTime()).toBe(signed.expires * 1000);
    clock.set(issued + DOWNLOAD_URL_TTL_MS);
    expect(sut.verify(TEAM, ID, signed.expires, signed.signature)).toBe(true);
    clock.set(signed.expires * 1000);
    expect(sut.verify(TEAM, ID, signed.expires, signed.signature)).toBe(false);
  });
});

describe(signedDownloadQueryOf.name, () => {
  it('reads exactly the two parameters the API writes', () => {
    expect(signedDownloadQueryOf({ expires: '1795679631', signature: 'a-b_C9' })).toEqual({
      expires: 1795679631,
      signature: 'a-b_C9',
    });
  });

  it.each([
    ['a malformed expires', { expires: '1795679631x', signature: 'abc' }],
    ['a signature that is not base64url', { expires: '1795679631', signature: 'ab+c/=' }],
    ['no signature', { expires: '1795679631' }],
    ['no expires', { signature: 'abc' }],
    ['an extra parameter', { expires: '1795679631', signature: 'abc', download: '1' }],
    ['a repeated parameter', { expires: ['1795679631', '1795679632'], signature: 'abc' }],
  ])('is undefined for %s', (_case, query) => {
    expect(signedDownloadQueryOf(query)).toBeUndefined();
  });
});
