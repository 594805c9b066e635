import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const TOO_LARGE = new Set(['HPE_HEADER_OVERFLOW']);

function rawAnswer(status: number, reason: string, error: string): string {
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/**
 * Requests Node's HTTP parser refuses before any handler runs (a malformed request line, bad characters in a
 * header, headers over the size limit) get `{error}` like every other refusal, instead of Node's empty 400.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = TOO_LARGE.has(error.code ?? '')
      ? rawAnswer(431, 'Request Header Fields Too Large', 'Request headers are too large')
      : rawAnswer(400, 'Bad Request', 'Malformed HTTP request');
    socket.end(answer);
  });
}
