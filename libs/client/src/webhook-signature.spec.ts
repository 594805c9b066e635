import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookSignatureError } from './webhook-signature.js';

describe('verifyWebhook', () => {
  const secret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
  const body = JSON.stringify({
    id: 'evt_1',
    type: 'ping',
    createdAt: '2030-01-01T00:00:00.000Z',
    data: { object: { id: 'x' } },
  });
  const at = new Date(Date.UTC(2030, 0, 1));
  const signed = (key = secret) => ({
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign('evt_1', at, body),
  });

  it('accepts what the standardwebhooks package signs, and returns the event', () => {
    expect(verifyWebhook(secret, body, signed(), { now: at.getTime() })).toEqual(JSON.parse(body));
  });

  it('refuses another secret, a changed body and a stale timestamp', () => {
    const other = `whsec_${Buffer.alloc(32, 4).toString('base64')}`;
    expect(() => verifyWebhook(secret, body, signed(other), { now: at.getTime() })).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook(secret, `${body} `, signed(), { now: at.getTime() })).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook(secret, body, signed(), { now: at.getTime() + 301_000 })).toThrow('too far from now');
  });

  it('reads fetch-style headers too', () => {
    expect(verifyWebhook(secret, body, new Headers(signed()), { now: at.getTime() })).toEqual(JSON.parse(body));
  });
});
