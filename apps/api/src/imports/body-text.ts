import { isUtf8 } from 'node:buffer';
import { Transform, type Readable } from 'node:stream';
import { BadRequestException, HttpException, HttpStatus } from '@nestjs/common';
import { parse as parseContentType } from 'content-type';

/** Where the first character that is not UTF-8 begins: its first byte and its line, counted from 1. */
export interface Utf8Fault {
  byte: number;
  line: number;
}

/**
 * Checks that bytes are UTF-8 as they stream by, chunk after chunk (a character may straddle two): the first byte
 * that breaks it, with its line. Overlong forms, surrogates and code points past U+10FFFF break it too (RFC 3629),
 * as a fatal `TextDecoder` would refuse them. A whole chunk of plain UTF-8 is checked natively (`isUtf8`); the
 * byte-by-byte walk runs only for a chunk that ends inside a character or holds the fault.
 */
export class Utf8Check {
  /** Bytes seen before the current chunk, and the `\n`s among them. */
  private bytes = 0;
  private lines = 0;
  /** Continuation bytes the current character still needs, and the range its next one must fall in. */
  private needed = 0;
  private low = 0x80;
  private high = 0xbf;
  /** The byte (from 1) the character under way began at. */
  private lead = 0;

  /** Checks the next chunk: the fault, or undefined when it is UTF-8 so far. */
  feed(chunk: Uint8Array): Utf8Fault | undefined {
    const fault = this.needed === 0 && isUtf8(chunk) ? undefined : this.walk(chunk);
    if (fault) return fault;
    this.lines += newlinesIn(chunk, chunk.length);
    this.bytes += chunk.length;
    return undefined;
  }

  /** At the end of the bytes: the fault of a character cut short, if any (where it began). */
  end(): Utf8Fault | undefined {
    return this.needed === 0 ? undefined : { byte: this.lead, line: this.lines + 1 };
  }

  private walk(chunk: Uint8Array): Utf8Fault | undefined {
    // Where the character under way began in this chunk (-1: in an earlier one, at `lead`).
    let leadIndex = -1;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.needed > 0) {
        if (b < this.low || b > this.high) return this.faultAt(chunk, leadIndex);
        this.needed -= 1;
        this.low = 0x80;
        this.high = 0xbf;
        continue;
      }
      if (b < 0x80) continue;
      leadIndex = i;
      this.lead = this.bytes + i + 1;
      if (b >= 0xc2 && b <= 0xdf) this.needed = 1;
      else if (b >= 0xe0 && b <= 0xef) {
        this.needed = 2;
        // No overlong three-byte form, no UTF-16 surrogate.
        if (b === 0xe0) this.low = 0xa0;
        if (b === 0xed) this.high = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        this.needed = 3;
        // No overlong four-byte form, nothing past U+10FFFF.
        if (b === 0xf0) this.low = 0x90;
        if (b === 0xf4) this.high = 0x8f;
      } else return this.faultAt(chunk, i);
    }
    return undefined;
  }

  /**
   * The fault of the character that began at `index` of `chunk`, or (-1) in an earlier chunk: then only its
   * continuation bytes, never a `\n`, came after it there, so its line is the one the bytes before this chunk end on.
   */
  private faultAt(chunk: Uint8Array, index: number): Utf8Fault {
    if (index < 0) return { byte: this.lead, line: this.lines + 1 };
    return { byte: this.bytes + index + 1, line: this.lines + newlinesIn(chunk, index) + 1 };
  }
}

/** How many `\n` bytes the first `end` bytes of `chunk` hold. */
function newlinesIn(chunk: Uint8Array, end: number): number {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, end);
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count += 1;
  return count;
}

/** The refusal of a body whose bytes are not text in `charset` (400): what to do about it, and where it broke. */
function notText(charset: string, fault?: Utf8Fault): BadRequestException {
  const where = fault ? ` (byte ${fault.byte}, line ${fault.line})` : '';
  return new BadRequestException(
    `The body is not valid ${charset} text${where}: save it as UTF-8, or name its encoding in Content-Type ` +
      '(e.g. text/csv; charset=windows-1252)',
  );
}

/** The charset a Content-Type names (lower case), or undefined when it names none. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  // The header's grammar (quoted values, escapes, parameter names in any case) as Express itself reads it.
  const charset = parseContentType(contentType).parameters.charset;
  if (charset !== undefined) return charset.toLowerCase();
  // A charset parameter the grammar drops (`charset="utf-16le`, its quote never closed) is named as sent, so that
  // it is refused (415), not read as UTF-8.
  const unquoted = contentType.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return /;\s*charset\s*=\s*([^;]*)/i.exec(unquoted)?.[1]?.trim().toLowerCase();
}

/**
 * The encoding a body's declared charset names (a WHATWG label: `utf-8`, `windows-1252`, `iso-8859-1`, `utf-16le`…),
 * UTF-8 when none is declared; a charset no decoder knows refuses the body (415) before it is read.
 */
export function bodyEncoding(contentType: string | undefined): string {
  const charset = declaredCharset(contentType);
  if (charset === undefined) return 'utf-8';
  try {
    return new TextDecoder(charset).encoding;
  } catch {
    throw new HttpException(
      { message: `Unsupported charset ${charset}: send UTF-8, or a charset such as windows-1252 or iso-8859-1` },
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
    );
  }
}

/**
 * A body's bytes as UTF-8, whatever `encoding` they came in: UTF-8 is checked as it passes (never read with U+FFFD
 * in place of what is not text), another encoding decoded. Bytes that are not text in it destroy the stream with a
 * 400 naming the first of them.
 */
export function asUtf8(body: Readable, encoding: string): Readable {
  const utf8 = encoding === 'utf-8';
  const check = new Utf8Check();
  const decoder = utf8 ? undefined : new TextDecoder(encoding, { fatal: true });
  const name = utf8 ? 'UTF-8' : encoding;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!decoder) {
        const fault = check.feed(chunk);
        done(fault ? notText(name, fault) : undefined, fault ? undefined : chunk);
        return;
      }
      try {
        done(undefined, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
      } catch {
        done(notText(name));
      }
    },
    flush(done) {
      if (!decoder) {
        const fault = check.end();
        done(fault ? notText(name, fault) : undefined);
        return;
      }
      try {
        done(undefined, Buffer.from(decoder.decode(), 'utf8'));
      } catch {
        done(notText(name));
      }
    },
  });
  body.on('error', (error) => out.destroy(error));
  return body.pipe(out);
}
