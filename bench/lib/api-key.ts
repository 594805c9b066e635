import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A key in the service's format, `ppk_` + 40 base62 characters; random, not seeded: it is a secret, not data. */
export function newApiKey(): string {
  let secret = '';
  while (secret.length < 40) {
    for (const byte of randomBytes(64)) {
      // 248 = 4 * 62: dropping the top bytes keeps every character equally likely.
      if (byte < 248 && secret.length < 40) secret += ALPHABET[byte % 62];
    }
  }
  return `ppk_${secret}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
