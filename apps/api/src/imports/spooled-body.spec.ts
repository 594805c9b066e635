import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { BadRequestException } from '@nestjs/common';
import { spoolBody, SPOOL_FILE_PREFIX } from './spooled-body.js';

/** A request body as the HTTP server hands it over: a stream that knows whether it arrived whole. */
function requestBody(): PassThrough & { complete: boolean } {
  const body = new PassThrough() as PassThrough & { complete: boolean };
  body.complete = false;
  body.on('end', () => {
    body.complete = true;
    // As Node's server does once a request has been read: 'close' follows its end.
    setImmediate(() => body.emit('close'));
  });
  return body;
}

class TooLarge extends Error {}

describe('spoolBody', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'spool-spec-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const spool = (body: PassThrough, limit = 1024) =>
    spoolBody(body as unknown as IncomingMessage, { limit, tooLarge: () => new TooLarge('too large'), folder });

  it('keeps the whole body in a file, with its size and SHA-256, and removes it when told', async () => {
    const body = requestBody();
    const received = spool(body);
    const pieces = ['externalRef,city\n', 'U-1,Leeds\n', 'U-2,York\n'];
    for (const piece of pieces) body.write(piece);
    body.end();
    const spooled = await received;
    const text = pieces.join('');
    expect(await readFile(spooled.path, 'utf8')).toBe(text);
    expect(spooled.bytes).toBe(Buffer.byteLength(text));
    expect(spooled.digest).toBe(createHash('sha256').update(text).digest('hex'));
    expect(spooled.path.startsWith(join(folder, SPOOL_FILE_PREFIX))).toBe(true);
    let read = '';
    for await (const chunk of spooled.open()) read += String(chunk);
    expect(read).toBe(text);
    await spooled.remove();
    await spooled.remove();
    expect(await readdir(folder)).toEqual([]);
  });

  it('takes a body of exactly the limit', async () => {
    const body = requestBody();
    const received = spool(body, 10);
    body.end(Buffer.alloc(10, 1));
    expect((await received).bytes).toBe(10);
  });

  it('refuses a body past the limit, leaving no file, and reads the rest away', async () => {
    const body = requestBody();
    const received = spool(body, 10);
    body.write(Buffer.alloc(8, 1));
    body.write(Buffer.alloc(8, 2));
    await expect(received).rejects.toBeInstanceOf(TooLarge);
    expect(await readdir(folder)).toEqual([]);
    // The rest still flows (and is dropped), so the refusal can be answered on the same connection.
    body.end(Buffer.alloc(4096, 3));
    await new Promise((done) => body.once('end', done));
    expect(body.complete).toBe(true);
  });

  it('refuses a body whose client went away before its end (400), leaving no file', async () => {
    const body = requestBody();
    const received = spool(body);
    body.write('externalRef,city\nU-1,');
    await new Promise((done) => setImmediate(done));
    body.emit('close');
    await expect(received).rejects.toBeInstanceOf(BadRequestException);
    expect(await readdir(folder)).toEqual([]);
  });
});
