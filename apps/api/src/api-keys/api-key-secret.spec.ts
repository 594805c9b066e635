import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { API_KEY_PATTERN, generateApiKey, hashApiKey } from './api-key-secret.js';

describe(generateApiKey.name, () => {
  it('is ppk_ followed by at least 32 base62 characters', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^ppk_[0-9A-Za-z]{32,}$/);
    expect(key).toMatch(API_KEY_PATTERN);
  });

  it('is ppk_test_ followed by 40 base62 characters for a sandbox key', () => {
    const key = generateApiKey(true);
    expect(key).toMatch(/^ppk_test_[0-9A-Za-z]{40}$/);
    expect(key).toMatch(API_KEY_PATTERN);
  });

  it('never repeats over many keys', () => {
    const keys = Array.from({ length: 5000 }, () => generateApiKey());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('draws from the whole base62 alphabet', () => {
    const seen = new Set(
      Array.from({ length: 500 }, () => generateApiKey().slice(4))
        .join('')
        .split(''),
    );
    expect([...seen].sort().join('')).toBe('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
  });
});

describe(hashApiKey.name, () => {
  it('is the lowercase SHA-256 hex digest of the whole key', () => {
    // Known vector: SHA-256("abc").
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is deterministic and differs between keys', () => {
    const [a, b] = [generateApiKey(), generateApiKey()];
    expect(hashApiKey(a)).toBe(hashApiKey(a));
    expect(hashApiKey(a)).not.toBe(hashApiKey(b));
  });
});

describe('API_KEY_PATTERN', () => {
  it.each([
    'ppk_short',
    `ppk_${'a'.repeat(31)}`,
    `pk_${'a'.repeat(40)}`,
    `ppk_${'a'.repeat(39)}-`,
    `PPK_${'a'.repeat(40)}`,
    `ppk_test_${'a'.repeat(31)}`,
    `ppk_TEST_${'a'.repeat(40)}`,
    `ppk_test_test_${'a'.repeat(40)}`,
    '',
  ])('refuses %j', (token) => {
    expect(API_KEY_PATTERN.test(token)).toBe(false);
  });
});
