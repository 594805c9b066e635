import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sendJson } from './http.js';

/** `POST /v1/work-orders/{id}/attachments` on the floor: matched before the JSON body rules and the key. */
export const UPLOAD_PATH = /^\/v1\/work-orders\/[^/]+\/attachments\/?$/i;
/** `GET /v1/work-orders/{id}/attachments/{attachmentId}/content`: the file back, for the memory check's reference. */
export const CONTENT_PATH = /^\/v1\/work-orders\/[^/]+\/attachments\/([0-9a-f-]{36})\/content$/i;

/**
 * The plain upload server issue 24 measures the service's uploads against: the request body streamed as it is to a
 * new file with `fs.createWriteStream`, then 201 with a small JSON body. Unlike the rest of the floor it does not do
 * what the service does — no key, no multipart parsing, no type check, no hash, no row: it is the cost of moving
 * the bytes from the socket to the disk with nothing else, the floor of any upload (docs/performance.md,
 * "Attachments"). Files go under `FLOOR_UPLOAD_DIR`, which the runner makes and removes.
 */
export async function plainUpload(request: IncomingMessage, response: ServerResponse, folder: string): Promise<void> {
  const id = randomUUID();
  const file = createWriteStream(join(folder, id));
  await pipeline(request, file);
  sendJson(response, 201, { data: { id, size: file.bytesWritten } });
}

/** The file an upload wrote, streamed back with `fs.createReadStream` (404 when there is none). */
export async function plainDownload(response: ServerResponse, folder: string, id: string): Promise<void> {
  const path = join(folder, id.toLowerCase());
  const size = await stat(path).then(
    (found) => found.size,
    () => undefined,
  );
  if (size === undefined) {
    sendJson(response, 404, { error: 'Attachment not found' });
    return;
  }
  response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': size });
  await pipeline(createReadStream(path), response);
}
