import type { ServerResponse, Server } from 'node:http';
import type { Socket } from 'node:net';

/** What Node's HTTP server refuses itself, by its error code, as Node's own default answers do; 400 otherwise. */
const REFUSALS: Record<string, { status: number; reason: string; error: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    error: 'Request headers are too large',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    reason: 'Payload Too Large',
    error: 'Chunk extensions in the request body are too large',
  },
  // The request's head or the whole request did not arrive within the server's `headersTimeout` or `requestTimeout`.
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    error:
      "The request was not received in full within the server's time limit (60 s for its headers, " +
      '5 minutes for the whole request); nothing was done',
  },
};
const MALFORMED = { status: 400, reason: 'Bad Request', error: 'Malformed HTTP request' };

/** The status a connection's refusal was answered with, for the request log of a request it cut short. */
const answered = new WeakMap<Socket, number>();

/** The status written straight to this request's connection by `answerClientErrors`, if it was. */
export function refusedStatusOf(socket: Socket | null | undefined): number | undefined {
  return socket ? answered.get(socket) : undefined;
}

function rawAnswer({ status, reason, error }: typeof MALFORMED): string {
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/**
 * Requests Node's HTTP parser or its timeouts refuse before a handler answers (a malformed request line, bad
 * characters in a header, headers over the size limit, a request that stalls past the server's timeouts) get
 * `{error}` like every other refusal, with the status Node itself would send, instead of Node's empty answer.
 * Nothing is written once an answer to the request has begun (it would corrupt that answer): the connection is
 * closed, as Node does.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS[error.code ?? ''] ?? MALFORMED;
    answered.set(socket, refusal.status);
    // Then the connection goes, as Node's own answer does: a request cut short here must never run to its end
    // (the rest of a timed-out body, arriving after the 408, would otherwise complete it).
    socket.end(rawAnswer(refusal), () => socket.destroy());
  });
}
