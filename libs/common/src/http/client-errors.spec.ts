import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { answerClientErrors } from './client-errors.js';

/** A real server with the refusals answered, and timeouts short enough for a test (checked every 20 ms). */
async function serverWith(handler: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer({ requestTimeout: 300, headersTimeout: 200, connectionsCheckingInterval: 20 }, handler);
  answerClientErrors(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

/** Writes `text` and reads everything the server sends until it closes the connection. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe(answerClientErrors.name, () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    if (server) await new Promise((closed) => server?.close(closed));
  });

  it('answers headers that stall past the headers timeout with 408 {error}, not "Malformed"', async () => {
    const started = await serverWith((_request, response) => response.end('never'));
    server = started.server;
    const answer = await exchange(started.port, 'POST /v1/records HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('Content-Type: application/json; charset=utf-8\r\n');
    expect(answer).toContain('X-Content-Type-Options: nosniff\r\n');
    expect(JSON.parse(answer.split('\r\n\r\n')[1] ?? '')).toEqual({
      error: expect.stringMatching(/^The request was not received in full within/),
    });
  });

  it('answers a body that stalls past the request timeout with 408 {error}; the rest arriving later runs nothing', async () => {
    let reached = false;
    let ended = false;
    const started = await serverWith((request) => {
      reached = true;
      request.on('end', () => (ended = true));
      request.resume();
    });
    server = started.server;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(started.port, '127.0.0.1', () =>
        socket.write('POST /v1/records HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{"a"'),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        // Told 408, the client sends the rest of its body anyway.
        if (socket.writable) socket.write(':12345');
      });
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
      socket.on('timeout', () => reject(new Error('no answer')));
    });
    expect(reached).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.split('\r\n\r\n')[1]).toMatch(/^\{"error":/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toBe(false);
  });

  it('writes nothing into an answer already begun: the connection is closed instead', async () => {
    const started = await serverWith((request, response) => {
      request.resume();
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('partial');
    });
    server = started.server;
    const answer = await exchange(
      started.port,
      'POST /v1/records HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a"',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).not.toContain('HTTP/1.1 408');
    expect(answer).not.toContain('{"error"');
  });

  it('keeps 400 for a malformed request and 431 for oversized headers', async () => {
    const started = await serverWith((_request, response) => response.end('never'));
    server = started.server;
    expect(await exchange(started.port, 'GARBAGE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const big = await exchange(started.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
  });
});
