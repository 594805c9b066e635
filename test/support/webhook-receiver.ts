import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, type Team, type TestApp } from './test-app.js';

/**
 * A local HTTP receiver for webhook deliveries: it records each request's path (once its body has arrived) and
 * answers through `answer`, 200 by default. Subclasses hold or delay answers (the fairness specs).
 */
export class WebhookReceiver {
  readonly paths: string[] = [];
  port = 0;
  private server?: Server;

  /** `http://127.0.0.1:<port>`. */
  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** `host`: `::` listens on both stacks (for probes that reach it by IPv6 forms too). */
  async start(host = '127.0.0.1'): Promise<void> {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const path = request.url ?? '';
        this.paths.push(path);
        this.answer(path, response);
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  protected answer(_path: string, response: ServerResponse): void {
    response.end('ok');
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * The fairness scenario's two teams (issue 21): `slow` with 20 endpoints at `<base>/slow/0…19`, `fast` with one
 * at `<base>/fast`.
 */
export async function slowAndFastTeams(sut: TestApp, base: string): Promise<{ slow: Team; fast: Team }> {
  const slow = await sut.createTeam('Slow endpoints');
  const fast = await sut.createTeam('Fast endpoint');
  const register = (team: Team, url: string) =>
    sut
      .http()
      .post('/v1/webhook-endpoints')
      .set(...bearer(team))
      .send({ url })
      .expect(201);
  for (let i = 0; i < 20; i++) await register(slow, `${base}/slow/${i}`);
  await register(fast, `${base}/fast`);
  return { slow, fast };
}
