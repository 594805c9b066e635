import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { BadRequestException, HttpException } from '@nestjs/common';
import { asUtf8, bodyEncoding, declaredCharset, Utf8Check, type Utf8Fault } from './body-text.js';

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

/** The check over `body` cut into two chunks at `split`. */
function checked(body: Buffer, split: number): Utf8Fault | undefined {
  const check = new Utf8Check();
  return check.feed(body.subarray(0, split)) ?? check.feed(body.subarray(split)) ?? check.end();
}

const isText = (body: Buffer): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
};

describe('Utf8Check', () => {
  // [body, the first bad character's byte and line (from 1), or undefined for UTF-8]
  const cases: Array<[string, Buffer, Utf8Fault | undefined]> = [
    ['ASCII', bytes('a,b\nc,d\n'), undefined],
    ['two-, three- and four-byte characters', bytes('Café\n€ 5\n😀\n'), undefined],
    ['the last code point, U+10FFFF', bytes([0xf4, 0x8f, 0xbf, 0xbf]), undefined],
    ['a Latin-1 é before a space', bytes('ab\nCaf', [0xe9], ' Rd'), { byte: 7, line: 2 }],
    ['a lone continuation byte', bytes('x\ny\n', [0x80]), { byte: 5, line: 3 }],
    ['an overlong two-byte form', bytes([0xc0, 0xaf]), { byte: 1, line: 1 }],
    ['an overlong three-byte form', bytes('\n', [0xe0, 0x80, 0xaf]), { byte: 2, line: 2 }],
    ['an encoded UTF-16 surrogate', bytes('ok', [0xed, 0xa0, 0x80]), { byte: 3, line: 1 }],
    ['a code point past U+10FFFF', bytes([0xf4, 0x90, 0x80, 0x80]), { byte: 1, line: 1 }],
    ['a byte no UTF-8 has', bytes('a\n\n', [0xff]), { byte: 4, line: 3 }],
    ['a character cut short at the end', bytes('a\nb', [0xe2, 0x82]), { byte: 4, line: 2 }],
    ['a character cut short by a newline', bytes('a', [0xe2, 0x82], '\n'), { byte: 2, line: 1 }],
  ];

  it.each(cases)('%s: the same fault wherever the bytes are cut into chunks', (_name, body, fault) => {
    // The decoder the check stands in for agrees on what is text.
    expect(isText(body)).toBe(fault === undefined);
    for (let split = 0; split <= body.length; split++) expect(checked(body, split)).toEqual(fault);
  });

  it('counts lines and bytes across many chunks', () => {
    const check = new Utf8Check();
    let sent = 0;
    for (let i = 0; i < 1000; i++) {
      const row = bytes(`row ${i},Café\n`);
      expect(check.feed(row)).toBeUndefined();
      sent += row.length;
    }
    expect(check.feed(bytes('last,', [0xe9]))).toBeUndefined();
    expect(check.end()).toEqual({ byte: sent + 6, line: 1001 });
  });
});

describe('declaredCharset and bodyEncoding', () => {
  it.each([
    [undefined, undefined, 'utf-8'],
    ['text/csv', undefined, 'utf-8'],
    ['text/csv; charset=UTF-8', 'utf-8', 'utf-8'],
    ['text/csv;charset="windows-1252"', 'windows-1252', 'windows-1252'],
    ['application/x-ndjson; charset=latin1; x=y', 'latin1', 'windows-1252'],
    ['text/csv; charset=utf-16le', 'utf-16le', 'utf-16le'],
    // The header's grammar: a charset named inside another parameter's quoted value is not the body's.
    ['text/csv; note="a;charset=utf-16le"; charset=windows-1252', 'windows-1252', 'windows-1252'],
    ['text/csv; note="a;charset=utf-16le"', undefined, 'utf-8'],
    ['text/csv; CHARSET="\\u\\t\\f-8"', 'utf-8', 'utf-8'],
  ])('%s: charset %s, read as %s', (contentType, charset, encoding) => {
    expect(declaredCharset(contentType)).toBe(charset);
    expect(bodyEncoding(contentType)).toBe(encoding);
  });

  it.each(['text/csv; charset=klingon', 'text/csv; charset="utf-16le'])(
    'refuses %s with 415 (a charset no decoder knows, or one the grammar cannot read), not as UTF-8',
    (contentType) => {
      let refusal: unknown;
      try {
        bodyEncoding(contentType);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(HttpException);
      expect((refusal as HttpException).getStatus()).toBe(415);
    },
  );
});

describe('asUtf8', () => {
  const read = async (stream: Readable): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  it('passes UTF-8 through, split inside a character, and decodes another encoding', async () => {
    const text = bytes('a,Café\n');
    expect(await read(asUtf8(Readable.from([text.subarray(0, 6), text.subarray(6)]), 'utf-8'))).toBe('a,Café\n');
    expect(await read(asUtf8(Readable.from([Buffer.from('a,Caf\xe9\n', 'latin1')]), 'windows-1252'))).toBe('a,Café\n');
  });

  it('decodes windows-1252 where it differs from Latin-1 (€ and curly quotes), one byte per chunk', async () => {
    // A one-shot decode of these bytes reads them as C1 controls on some Node versions; the streamed one is right.
    const bytes1252 = Buffer.from([0x49, 0x92, 0x6d, 0x20, 0x80, 0x35, 0x20, 0x93, 0x71, 0x94]);
    const chunks = [...bytes1252].map((byte) => Buffer.from([byte]));
    expect(await read(asUtf8(Readable.from(chunks), 'windows-1252'))).toBe('I’m €5 “q”');
  });

  it('fails with a 400 at the first byte that is not text', async () => {
    await expect(read(asUtf8(Readable.from([bytes('ok\n', [0xe9, 0x41])]), 'utf-8'))).rejects.toThrow(
      new BadRequestException(
        'The body is not valid UTF-8 text (byte 4, line 2): save it as UTF-8, or name its encoding in Content-Type ' +
          '(e.g. text/csv; charset=windows-1252)',
      ),
    );
    await expect(read(asUtf8(Readable.from([Buffer.from([0x00, 0xd8])]), 'utf-16le'))).rejects.toThrow(
      /^The body is not valid utf-16le text: save it as UTF-8/,
    );
  });
});
