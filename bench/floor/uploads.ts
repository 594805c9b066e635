import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sendJson } from './http.js';

/** `POST /v1/work-orders/{id}/attachments` on the floor: matched before the JSON body rules and the key. */
export const UPLOAD_PATH = /^\/v1\/work-orders\/[^/]+\/attachments\/?$/i;

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
