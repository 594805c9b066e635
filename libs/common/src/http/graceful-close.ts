import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/** How long connections that are open but between requests (or not yet read) may still bring one, at shutdown. */
export const SHUTDOWN_GRACE_MS = 1_000;
const SWEEP_MS = 50;

/**
 * Stops an HTTP server without dropping a request a client has already sent. `server.close()` alone (Node ≥ 19)
 * destroys every connection that is not in the middle of a request at that instant, and that includes
 * connections whose request is sitting unread in the socket: under load, requests a client finished sending were
 * reset (ECONNRESET) by a SIGTERM. Here, instead:
 *
 * 1. The listening socket closes at once: new connections are refused, so a balancer moves on.
 * 2. Every answer from now on carries `Connection: close`, so each connection ends after its answer.
 * 3. For `graceMs`, connections may still deliver a request (one already sent is read and answered); after that,
 *    the idle ones are closed every 50 ms, while requests under way — a body still arriving included — finish.
 *
 * Resolves once every connection has ended. The caller bounds the whole (the process's close timeout).
 */
export function closeGracefully(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  if (!server.listening) {
    return new Promise((resolve) => server.close(() => resolve()));
  }
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('Connection', 'close');
  });
  const deadline = Date.now() + graceMs;
  const sweep = setInterval(() => {
    if (Date.now() >= deadline) server.closeIdleConnections();
  }, SWEEP_MS);
  // net.Server's close, not http.Server's: the latter closes the idle connections first (step 3's early cut).
  return new Promise<void>((resolve) => {
    NetServer.prototype.close.call(server, () => resolve());
  }).finally(() => clearInterval(sweep));
}
