import { hash, randomBytes } from 'node:crypto';
import { TEST_KEY_PREFIX } from '@app/common';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;
/** A live key (`ppk_…`) or a test key (`ppk_test_…`). */
export const API_KEY_PATTERN = /^ppk_(?:test_)?[0-9A-Za-z]{32,128}$/;

/** `ppk_` (or `ppk_test_` for a sandbox's key) + 40 uniformly random base62 characters (~238 bits). */
export function generateApiKey(test = false): string {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 * 62: rejecting the top bytes keeps every character equally likely.
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += ALPHABET[byte % 62];
    }
  }
  return `${test ? TEST_KEY_PREFIX : 'ppk_'}${secret}`;
}

/** Its SHA-256 in hex (`hash`, Node's one-shot digest: no Hash object per request, as `createHash` makes). */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}
