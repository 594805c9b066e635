import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import { finished } from 'node:stream/promises';
import type { Response } from 'express';
import { ClientGoneError } from '@app/common';
import type { AttachmentRow } from './attachment.row.js';
import type { StoredObject } from './storage/object-storage.js';

/** `filename*=` in RFC 8187 form, and an ASCII `filename=` fallback. */
export function dispositionOf(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // RFC 8187's attr-char has no ' ( ) *, which encodeURIComponent leaves as they are.
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The headers `sendObject` sets on a download besides the stored `Content-Type`, as the OpenAPI document shows them
 * (`Cache-Control` and `X-Content-Type-Options` are on every answer's: `withApiResponseHeaders`).
 */
export const DOWNLOAD_HEADERS = {
  'Content-Length': {
    description: 'The file’s size in bytes (the attachment’s `size`)',
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 10485760, example: 48213 },
  },
  'Content-Disposition': {
    description:
      "`attachment`, with the file name (RFC 8187 `filename*=UTF-8''…` and an ASCII `filename=` fallback): the " +
      'browser saves the file, never shows it as a page',
    schema: { type: 'string', example: `attachment; filename="leak.png"; filename*=UTF-8''leak.png` },
  },
};

/**
 * Aborted when the connection closes: one listener on the socket for its whole life, however many downloads are
 * pipelined on it (a listener per download would pass Node's warning limit at ten), and no limit on the signal's.
 */
const connectionsGone = new WeakMap<Socket, AbortSignal>();
function goneSignalOf(connection: Socket): AbortSignal {
  let signal = connectionsGone.get(connection);
  if (!signal) {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    if (connection.destroyed) controller.abort();
    else connection.once('close', () => controller.abort());
    signal = controller.signal;
    connectionsGone.set(connection, signal);
  }
  return signal;
}

/**
 * Streams an object as a download that no browser renders as a page of ours. A client that goes away first is a
 * `ClientGoneError` (499, nobody to answer), not a server fault. That includes the client of a pipelined request
 * still queued behind another on its connection: its answer never gets the socket, so it never closes or fails by
 * itself, and only the connection's close stops the download (and lets go of its file).
 */
export async function sendObject(response: Response, row: AttachmentRow, object: StoredObject): Promise<void> {
  response.status(200);
  response.setHeader('Content-Type', row.contentType);
  response.setHeader('Content-Length', String(object.size));
  response.setHeader('Content-Disposition', dispositionOf(row.fileName));
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Cache-Control', 'no-store');
  const gone = goneSignalOf(response.req.socket);
  try {
    await object.writeTo(response, gone);
    response.end();
    await finished(response);
  } catch (error) {
    if (gone.aborted || response.destroyed) {
      throw new ClientGoneError('The client went away before its download was sent');
    }
    throw error;
  }
}
