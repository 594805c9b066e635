import { createHmac, timingSafeEqual } from 'node:crypto';

/** A webhook that failed verification: a wrong or missing signature, or a timestamp too far from now. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, either way (default 300 s: replays are refused). */
  toleranceSeconds?: number;
  /** Now in milliseconds (tests). */
  now?: number;
}

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a delivery per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the
 * endpoint's `whsec_…` secret, over the raw body exactly as received, and returns the parsed event. Throws
 * {@link WebhookSignatureError} otherwise. Node's or the fetch API's headers both work.
 */
export function verifyWebhook<Event = unknown>(
  secret: string,
  rawBody: string,
  headers: Headers,
  { toleranceSeconds = 300, now = Date.now() }: VerifyOptions = {},
): Event {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookSignatureError('missing webhook-id, -timestamp or -signature');
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds) || Math.abs(now / 1000 - seconds) > toleranceSeconds) {
    throw new WebhookSignatureError('webhook-timestamp is too far from now');
  }
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('no signature matches this secret');
  return JSON.parse(rawBody) as Event;
}
