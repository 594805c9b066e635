import { Webhook } from 'standardwebhooks';
import { newSecret, signatureHeader } from './signing.js';

describe('Standard Webhooks signing', () => {
  it('is verified by the standardwebhooks package, with either of two secrets, and not with a third', () => {
    const [current, previous, other] = [newSecret(), newSecret(), newSecret()];
    const body = JSON.stringify({ id: 'evt_1', type: 'ping' });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader([current, previous], 'evt_1', timestamp, body),
    };
    expect(new Webhook(current).verify(body, headers)).toEqual({ id: 'evt_1', type: 'ping' });
    expect(new Webhook(previous).verify(body, headers)).toEqual({ id: 'evt_1', type: 'ping' });
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });
});
