import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { BadRequestException } from '@nestjs/common';
import { receiveUpload } from './multipart-upload.js';

const BOUNDARY = 'spec-boundary';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4096, 3)]);
const BODY = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="description"\r\n\r\nDrip under the sink\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="leak.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  ),
  PNG,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

/** A request as the HTTP server hands it over: its headers, and a body stream that knows whether it arrived whole. */
function request(): PassThrough & { headers: Record<string, string>; complete: boolean } {
  const body = Object.assign(new PassThrough(), {
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    complete: false,
  });
  body.on('end', () => {
    body.complete = true;
    // As Node's server does once a request has been read: 'close' follows its end.
    setImmediate(() => body.emit('close'));
  });
  return body;
}

/** A storage that keeps what it is given, and whether it was called at all. */
function memoryStore() {
  const stored: { calls: number; bytes?: Buffer } = { calls: 0 };
  const store = async (body: Readable): Promise<void> => {
    stored.calls += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    stored.bytes = Buffer.concat(chunks);
  };
  return { stored, store };
}

describe('receiveUpload', () => {
  it('stores the file part as it arrives, with its type, size and SHA-256, and keeps the text fields', async () => {
    const body = request();
    const { stored, store } = memoryStore();
    const received = receiveUpload(body as unknown as IncomingMessage, store);
    body.end(BODY);
    const upload = await received;
    expect(upload).toEqual({
      fields: { description: 'Drip under the sink' },
      file: {
        fileName: 'leak.png',
        contentType: 'image/png',
        size: PNG.length,
        sha256: createHash('sha256').update(PNG).digest('hex'),
      },
      partsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(stored.bytes?.equals(PNG)).toBe(true);
  });

  it('knows an upload by every part it sent: the same parts give one digest whatever the boundary, another part another', async () => {
    const digestOf = async (boundary: string, extra = ''): Promise<string> => {
      const body = Object.assign(request(), {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      const received = receiveUpload(body as unknown as IncomingMessage, memoryStore().store);
      body.end(
        Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nDrip\r\n${extra}` +
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="leak.png"\r\n` +
              'Content-Type: image/png\r\n\r\n',
          ),
          PNG,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      );
      return (await received).partsDigest;
    };
    const first = await digestOf('first-boundary');
    expect(await digestOf('another-boundary-0123')).toBe(first);
    const colour = 'Content-Disposition: form-data; name="colour"\r\n\r\nred\r\n';
    expect(await digestOf('first-boundary', `--first-boundary\r\n${colour}`)).not.toBe(first);
  });

  it('refuses a body whose client went away before it was looked at (400), storing nothing', async () => {
    const body = request();
    body.write(BODY.subarray(0, 40));
    body.destroy();
    // As the guard finds it: the request's `close` already heard by no one.
    await once(body, 'close');
    const { stored, store } = memoryStore();
    const error = await receiveUpload(body as unknown as IncomingMessage, store).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(BadRequestException);
    expect((error as BadRequestException).message).toBe('The request body ended before all of it arrived');
    expect(stored.calls).toBe(0);
  });

  it('fails the stored stream and refuses (400) when the client goes away half-way through the file', async () => {
    const body = request();
    let handed = (_: Readable): void => undefined;
    const storedStream = new Promise<Readable>((done) => (handed = done));
    const store = (stream: Readable): Promise<void> =>
      new Promise((resolve, reject) => {
        handed(stream);
        stream.on('data', () => undefined);
        stream.once('end', resolve);
        stream.once('error', reject);
      });
    const received = receiveUpload(body as unknown as IncomingMessage, store);
    body.write(BODY.subarray(0, BODY.length - 1000));
    const stream = await storedStream;
    body.destroy();
    await expect(received).rejects.toBeInstanceOf(BadRequestException);
    expect(stream.destroyed).toBe(true);
  });

  it('settles when a body that arrived whole is lost with its client before the storage has read it', async () => {
    const body = request();
    let started = (): void => undefined;
    const storing = new Promise<void>((done) => (started = done));
    let release = (): void => undefined;
    const held = new Promise<void>((done) => (release = done));
    // A storage still opening its file: it reads the stream only once released.
    const store = async (stream: Readable): Promise<void> => {
      started();
      await held;
      for await (const chunk of stream) void chunk;
    };
    const received = receiveUpload(body as unknown as IncomingMessage, store);
    body.write(BODY);
    // Every byte parsed by the server (Node's `complete`), not all of it read: no `end` yet.
    body.complete = true;
    await storing;
    body.destroy();
    release();
    await expect(received).rejects.toBeInstanceOf(BadRequestException);
  });
});
