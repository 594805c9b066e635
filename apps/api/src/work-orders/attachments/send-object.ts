import { finished } from 'node:stream/promises';
import type { Response } from 'express';
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

/** Streams an object as a download that no browser renders as a page of ours. */
export async function sendObject(response: Response, row: AttachmentRow, object: StoredObject): Promise<void> {
  response.status(200);
  response.setHeader('Content-Type', row.contentType);
  response.setHeader('Content-Length', String(object.size));
  response.setHeader('Content-Disposition', dispositionOf(row.fileName));
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Cache-Control', 'no-store');
  await object.writeTo(response);
  response.end();
  await finished(response);
}
