import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks signature header: `v1,<base64 HMAC-SHA256 over "id.timestamp.body">` per secret (the key is
 * the base64 after `whsec_`), separated by spaces — during a rotation, one for the new secret and one for the old.
 */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  const content = `${id}.${timestamp}.${body}`;
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
    })
    .join(' ');
}
