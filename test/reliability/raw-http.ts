import { Agent, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawRequest {
  method: string;
  /** Path and query string, already percent-encoded. */
  path: string;
  headers: Record<string, string>;
  /** Sent as is; `fetch` refuses bodies on GET and DELETE, which the fuzzer needs to send. */
  body?: string;
}

export interface RawResponse {
  status: number;
  text: string;
}

/**
 * A keep-alive client for one app's server, listening on a free port for the suite's duration: thousands of
 * requests over a few sockets, instead of supertest's listen-per-request.
 */
export class RawHttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 8 });

  private constructor(private readonly port: number) {}

  static async listen(server: Server): Promise<RawHttpClient> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new RawHttpClient((server.address() as AddressInfo).port);
  }

  send(raw: RawRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...raw.headers };
      if (raw.body !== undefined) headers['Content-Length'] = Buffer.byteLength(raw.body);
      const outgoing = request(
        { host: '127.0.0.1', port: this.port, method: raw.method, path: raw.path, headers, agent: this.agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(raw.body);
    });
  }

  /** Closes the idle sockets, so the app's server can close. */
  close(): void {
    this.agent.destroy();
  }
}
