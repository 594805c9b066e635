import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { BadRequestException } from '@nestjs/common';
import { fieldText, partNameText, receiveUpload } from './multipart-upload.js';

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

  /** One upload whose parts' headers and values are given as bytes (a legacy client's Latin-1, say). */
  const rawUpload = (description: Buffer, disposition: Buffer, partType = ''): Buffer =>
    Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="description"\r\n${partType}\r\n`),
      description,
      Buffer.from(`\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; `),
      disposition,
      Buffer.from('\r\nContent-Type: image/png\r\n\r\n'),
      PNG,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
  const send = async (bytes: Buffer) => {
    const body = request();
    const { stored, store } = memoryStore();
    const received = receiveUpload(body as unknown as IncomingMessage, store).catch((failure: unknown) => failure);
    body.end(bytes);
    return { result: await received, stored };
  };

  it('refuses a text field whose bytes are not UTF-8 (400 naming it), where it was stored with U+FFFD', async () => {
    const { result } = await send(rawUpload(Buffer.from('Caf\xe9 ceiling', 'latin1'), Buffer.from('filename="a.png"')));
    expect(result).toBeInstanceOf(BadRequestException);
    expect((result as BadRequestException).message).toBe(
      'description must be UTF-8 text (its bytes are not: read so, they were U+FFFD)',
    );
    // A part that names its charset is read in it: UTF-8 declared and sent, Latin-1 declared and sent.
    const utf8 = await send(
      rawUpload(
        Buffer.from('Quote £250', 'utf8'),
        Buffer.from('filename="a.png"'),
        'Content-Type: text/plain; charset=utf-8\r\n',
      ),
    );
    expect(utf8.result).toMatchObject({ fields: { description: 'Quote £250' } });
    const latin1 = await send(
      rawUpload(
        Buffer.from('Quote £250', 'latin1'),
        Buffer.from('filename="a.png"'),
        'Content-Type: text/plain; charset=iso-8859-1\r\n',
      ),
    );
    expect(latin1.result).toMatchObject({ fields: { description: 'Quote £250' } });
    // Declared windows-1252 (busboy reads it as Latin-1): € and curly quotes as meant; an unread charset is 400.
    const cp1252 = await send(
      rawUpload(
        Buffer.from([0x80, 0x35, 0x20, 0x93, 0x71, 0x94]),
        Buffer.from('filename="a.png"'),
        'Content-Type: text/plain; charset=windows-1252\r\n',
      ),
    );
    expect(cp1252.result).toMatchObject({ fields: { description: '€5 “q”' } });
    const unread = await send(
      rawUpload(
        Buffer.from('Quote'),
        Buffer.from('filename="a.png"'),
        'Content-Type: text/plain; charset=iso-8859-15\r\n',
      ),
    );
    expect((unread.result as BadRequestException).message).toMatch(
      /^description must be UTF-8 text \(its part names a charset/,
    );
  });

  it('keeps a file name as meant: raw UTF-8, RFC 5987, or else a legacy form’s Windows-1252, never U+FFFD', async () => {
    const named = async (disposition: Buffer) =>
      ((await send(rawUpload(Buffer.from('Leak'), disposition))).result as { file: { fileName: string } }).file
        .fileName;
    expect(await named(Buffer.from('filename="Café 日本.png"', 'utf8'))).toBe('Café 日本.png');
    expect(await named(Buffer.from('filename="Caf\xe9 \x80 quote.png"', 'latin1'))).toBe('Café € quote.png');
    expect(await named(Buffer.from("filename*=UTF-8''%E6%97%A5%E6%9C%AC.png"))).toBe('日本.png');
    expect(await named(Buffer.from("filename*=UTF-8''Caf%C3%A9.png"))).toBe('Café.png');
  });
});

describe('partNameText', () => {
  it('reads a name’s raw bytes as UTF-8 or else Windows-1252, and leaves a decoded one as it is', () => {
    expect(partNameText('photo.png')).toBe('photo.png');
    expect(partNameText(Buffer.from('naïve.png', 'utf8').toString('latin1'))).toBe('naïve.png');
    expect(partNameText(Buffer.from([0x93, 0x71, 0x94, 0x2e, 0x70, 0x6e, 0x67]).toString('latin1'))).toBe('“q”.png');
    expect(partNameText('日本.png')).toBe('日本.png');
  });
});

describe('fieldText', () => {
  it('names the field for a value that lost its bytes, reads Latin-1’s C1 as Windows-1252, and passes other text', () => {
    expect(fieldText('description', 'Under the sink — £5 ✓')).toEqual({ text: 'Under the sink — £5 ✓' });
    expect(fieldText('description', 'Caf\uFFFD')).toEqual({
      fault: expect.stringMatching(/^description must be UTF-8 text/),
    });
    expect(fieldText('noteId', undefined)).toEqual({
      fault: expect.stringMatching(/^noteId must be UTF-8 text \(its part names a charset this API does not read/),
    });
    // busboy's Latin-1 reading of a part declared windows-1252: 0x80 0x35 ("€5") and 0x93 0x71 0x94 (“q”).
    expect(fieldText('description', '\u00805 \u0093q\u0094')).toEqual({ text: '€5 “q”' });
  });
});
