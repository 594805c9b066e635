import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import express from 'express';
import { answerClientErrors } from '../http/client-errors.js';
import { createLogger } from './logger.js';
import { requestLogger } from './request-logger.js';

interface LoggedApp {
  server: Server;
  port: number;
  lines: Record<string, unknown>[];
  /** Settles when a request has reached `/v1/slow`'s handler, which answers only when `release` is called. */
  arrived: Promise<void>;
  release: () => void;
}

/** An Express app with the request logger first, its lines kept. */
async function loggedApp(): Promise<LoggedApp> {
  const lines: Record<string, unknown>[] = [];
  const app = express();
  app.use(requestLogger(createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) })));
  let release = (): void => undefined;
  let arrive = (): void => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  app.get('/v1/fast', (_request, response) => void response.status(201).json({ ok: true }));
  app.get('/v1/slow', (_request, response) => {
    release = () => void response.status(200).json({ ok: true });
    arrive();
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, lines, arrived, release: () => release() };
}

async function until(check: () => boolean): Promise<void> {
  for (let tries = 0; !check(); tries++) {
    if (tries > 200) throw new Error('the log line never came');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe(requestLogger.name, () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    if (server) await new Promise((closed) => server?.close(closed));
  });

  it('logs an answered request with the status it was sent', async () => {
    const app = await loggedApp();
    server = app.server;
    const response = await fetch(`http://127.0.0.1:${app.port}/v1/fast?q=secret`);
    expect(response.status).toBe(201);
    await until(() => app.lines.length > 0);
    expect(app.lines).toEqual([
      expect.objectContaining({ level: 'info', method: 'GET', route: '/v1/fast', status: 201, msg: 'request' }),
    ]);
  });

  it('logs a request whose client left before any answer as 499 "request aborted", not 200', async () => {
    const app = await loggedApp();
    server = app.server;
    const client = httpRequest({ host: '127.0.0.1', port: app.port, path: '/v1/slow' });
    client.on('error', () => undefined);
    client.end();
    // Once the request has reached its handler, the client goes away without an answer.
    await app.arrived;
    client.destroy();
    await until(() => app.lines.length > 0);
    expect(app.lines).toEqual([
      expect.objectContaining({ level: 'info', route: '/v1/slow', status: 499, msg: 'request aborted' }),
    ]);
    // An answer attempted afterwards changes nothing of what was logged.
    app.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.lines).toHaveLength(1);
  });

  it('logs a request the server timed out as the 408 its client was sent', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = express();
    app.use(requestLogger(createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) })));
    // The body never arrives whole: the handler reads on, and the server's request timeout ends the request.
    app.post('/v1/uploads', (request) => void request.resume());
    server = createServer({ requestTimeout: 300, headersTimeout: 200, connectionsCheckingInterval: 20 }, app);
    answerClientErrors(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('POST /v1/uploads HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a"');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    await until(() => lines.length > 0);
    expect(lines).toEqual([expect.objectContaining({ route: '/v1/uploads', status: 408, msg: 'request timed out' })]);
    await until(() => answer.length > 0);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    socket.destroy();
  });
});
