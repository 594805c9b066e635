import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import type { Clock } from '@app/common';
import { signatureHeader } from './signing.js';
import { checkUrlForm, isPrivateAddress, resolveSafely, UnsafeUrlError, type UrlRules } from './url-safety.js';

/** Only this much of an answer is read (then the connection is dropped). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** What one attempt sends. */
export interface OutgoingDelivery {
  url: string;
  eventId: string;
  body: string;
  /** The endpoint's secret, and its previous one while that still signs. */
  secrets: string[];
}

/** How an attempt ended: the answer's status, or why there was none. */
export interface Outcome {
  status?: number;
  error?: string;
}

/**
 * Sends one webhook attempt: POST of the stored event JSON with the Standard Webhooks headers, over a connection to
 * an address checked at this very attempt. The host — a name or an IP literal alike — is resolved and every
 * address checked before connecting, the connection is made to a checked address (no DNS rebinding between check
 * and connect), and the socket's remote address is checked again on connect, before a byte is written. No
 * redirects, at most 64 KiB of the answer read, one deadline for the whole attempt.
 */
export class WebhookSender {
  constructor(
    private readonly rules: UrlRules,
    private readonly timeoutMs: number,
    private readonly clock: Clock,
  ) {}

  /** One attempt: the stored event JSON, signed with `secrets`, to `delivery.url`; never throws. */
  send(delivery: OutgoingDelivery): Promise<Outcome> {
    let url: URL;
    try {
      url = checkUrlForm(delivery.url, this.rules);
    } catch (error) {
      return Promise.resolve({ error: (error as Error).message });
    }
    const timestamp = Math.floor(this.clock.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'PropertyPortfolioAPI-Webhooks/1.0',
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(delivery.secrets, delivery.eventId, timestamp, delivery.body),
      'content-length': String(Buffer.byteLength(delivery.body)),
    };
    const timeout = this.timeoutMs;
    const late = (): Error => new Error(`no answer within ${timeout} ms`);
    return new Promise<Outcome>((resolve) => {
      let request: http.ClientRequest | undefined;
      let settled = false;
      const settle = (outcome: Outcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(outcome);
      };
      // One deadline for the whole attempt: resolving the host, connecting, sending and reading the answer.
      const deadline = setTimeout(
        () => (request ? request.destroy(late()) : settle({ error: late().message })),
        timeout,
      );
      // Every host form is resolved and checked here, an IP literal too: Node never calls `lookup` for a literal.
      resolveSafely(url.hostname, this.rules).then(
        (addresses) => {
          if (settled) return;
          request = this.post(url, headers, addresses, settle);
          request.end(delivery.body);
        },
        (error: Error) => settle({ error: error.message.slice(0, 500) }),
      );
    });
  }

  /** The request itself, to one of `addresses` (checked already) and to nothing else. */
  private post(
    url: URL,
    headers: Record<string, string>,
    addresses: Array<{ address: string; family: number }>,
    settle: (outcome: Outcome) => void,
  ): http.ClientRequest {
    // Node connects to what this lookup answers, so a DNS answer that changed since the check is never used.
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, { method: 'POST', headers, lookup, timeout: this.timeoutMs }, (answer) => {
      let read = 0;
      answer.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) answer.destroy();
      });
      answer.on('close', () => settle({ status: answer.statusCode }));
      answer.on('error', () => settle({ status: answer.statusCode }));
    });
    // The last word, whatever the host form and however the connection was made: the address actually connected
    // to, checked before anything is written (a socket that fails here has sent nothing, not even a TLS hello).
    request.on('socket', (socket: Socket) => {
      // Prepended: ahead of TLS, which sends its ClientHello from a 'connect' listener of its own.
      if (socket.connecting) socket.prependOnceListener('connect', () => this.checkConnected(socket, url));
      else this.checkConnected(socket, url);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
    request.on('error', (error) => settle({ error: error.message.slice(0, 500) }));
    return request;
  }

  private checkConnected(socket: Socket, url: URL): void {
    const address = socket.remoteAddress ?? '';
    if (this.rules.allowPrivate || !isPrivateAddress(address)) return;
    socket.destroy(
      new UnsafeUrlError(
        `url's host ${url.hostname} connected to ${address}, a loopback, private, link-local or metadata address, which webhooks may not reach`,
      ),
    );
  }
}
