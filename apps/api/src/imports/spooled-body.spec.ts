import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { BadRequestException } from '@nestjs/common';
import { ClientGoneError } from '@app/common';
import { ReceivedRows, spoolBody } from './spooled-body.js';

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

/** Until `spoolBody` listens to the body (its folder made, its file being opened). */
async function listened(body: PassThrough): Promise<void> {
  while (body.listenerCount('close') === 0) await new Promise((done) => setImmediate(done));
}

describe('spoolBody', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'spool-spec-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const spool = (body: PassThrough, limit = 1024) =>
    spoolBody(body as unknown as IncomingMessage, { limit, tooLarge: () => new TooLarge('too large'), folder });

  const readAll = async (rows: AsyncIterable<Buffer>): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const chunk of rows) chunks.push(chunk);
    return Buffer.concat(chunks);
  };

  it('receives the whole body, with its size and SHA-256, readable through a descriptor once its file is gone', async () => {
    const body = requestBody();
    const received = spool(body);
    const pieces = ['externalRef,city\n', 'U-1,Leeds\n', 'U-2,York\n'];
    for (const piece of pieces) body.write(piece);
    body.end();
    const spooled = await received;
    const text = pieces.join('');
    expect(spooled.bytes).toBe(Buffer.byteLength(text));
    expect(spooled.digest).toBe(createHash('sha256').update(text).digest('hex'));
    expect(await readdir(folder)).toEqual([]);
    expect((await readAll(spooled.rows)).toString('utf8')).toBe(text);
  });

  it('takes a body of megabytes in socket-sized pieces, each written before the next is read', async () => {
    const body = requestBody();
    const received = spoolBody(body as unknown as IncomingMessage, {
      limit: 8 << 20,
      tooLarge: () => new TooLarge('too large'),
      folder,
    });
    const hash = createHash('sha256');
    // Each 64 KiB piece is more than the file's stream holds (16 KiB): the body is paused until it drains.
    for (let index = 0; index < 64; index++) {
      const piece = Buffer.alloc(64 << 10, index);
      hash.update(piece);
      if (!body.write(piece)) await new Promise((done) => body.once('drain', done));
    }
    body.end();
    const spooled = await received;
    expect(spooled.bytes).toBe(4 << 20);
    expect(spooled.digest).toBe(hash.digest('hex'));
    const read = await readAll(spooled.rows);
    expect(read.length).toBe(4 << 20);
    expect(createHash('sha256').update(read).digest('hex')).toBe(spooled.digest);
  });

  it('makes its folder when missing', async () => {
    const body = requestBody();
    const nested = join(folder, 'a', 'b');
    const received = spoolBody(body as unknown as IncomingMessage, {
      limit: 1024,
      tooLarge: () => new TooLarge('too large'),
      folder: nested,
    });
    body.end('externalRef\nU-1\n');
    const spooled = await received;
    expect((await readAll(spooled.rows)).toString('utf8')).toBe('externalRef\nU-1\n');
    expect(await readdir(nested)).toEqual([]);
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

  const aborted = () => Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
  it.each([
    // As Node's server ends a request whose connection closed mid-body (nobody listens for its error yet).
    ['whose client went away before its end', false, (body: PassThrough) => body.destroy()],
    [
      "whose stream failed before its end, as an aborted request's does",
      false,
      (body: PassThrough) => body.destroy(aborted()),
    ],
    // Node's parser has seen the whole body (complete), but the stream still holds some of it when the socket goes.
    [
      'whose bytes had all arrived but not yet been read when its client went away',
      true,
      (body: PassThrough) => body.destroy(aborted()),
    ],
  ])('refuses (400) a body %s, leaving no file', async (_, complete, cut) => {
    const body = requestBody();
    const received = spool(body);
    body.write('externalRef,city\nU-1,Leeds\n');
    await listened(body);
    body.complete = complete;
    cut(body);
    await expect(received).rejects.toBeInstanceOf(BadRequestException);
    expect(await readdir(folder)).toEqual([]);
  });

  it('refuses (400) a body whose client was gone before it was looked at, making no file', async () => {
    const body = requestBody();
    body.destroy();
    await expect(spool(body)).rejects.toBeInstanceOf(BadRequestException);
    expect(await readdir(folder)).toEqual([]);
  });
});

describe('ReceivedRows', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'received-rows-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const openRows = async () => {
    const path = join(folder, 'rows');
    await writeFile(path, 'externalRef\nU-1\n');
    const rows = createReadStream(path);
    await once(rows, 'open');
    return rows;
  };
  const answer = () =>
    new Writable({
      write: (_chunk, _encoding, done) => done(),
    });

  it('closes rows nobody took once the answer has gone out (a replay, a failure before the route)', async () => {
    const rows = await openRows();
    const sent = answer();
    new ReceivedRows(rows, sent);
    sent.end();
    await once(rows, 'close');
    expect(rows.destroyed).toBe(true);
  });

  it('leaves rows the route took to the route', async () => {
    const rows = await openRows();
    const sent = answer();
    const received = new ReceivedRows(rows, sent);
    expect(received.take()).toBe(rows);
    sent.end();
    await once(sent, 'finish');
    await new Promise((done) => setImmediate(done));
    expect(rows.destroyed).toBe(false);
    rows.destroy();
  });

  it('answers 499 to a route that comes for rows closed because its client went away', async () => {
    const rows = await openRows();
    const sent = answer();
    const received = new ReceivedRows(rows, sent);
    sent.destroy();
    await once(rows, 'close');
    expect(() => received.take()).toThrow(ClientGoneError);
  });
});
