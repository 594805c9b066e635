import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { ATTACHMENT_EXAMPLE } from './attachment.example.js';
import { contentTypeOf } from './content-type.js';
import { EXAMPLE_QUOTE_PDF } from './example-quote.js';

describe('the example attachment', () => {
  it('documents the size, hash and type of the bytes the demo team stores', () => {
    expect(EXAMPLE_QUOTE_PDF.length).toBe(ATTACHMENT_EXAMPLE.size);
    expect(createHash('sha256').update(EXAMPLE_QUOTE_PDF).digest('hex')).toBe(ATTACHMENT_EXAMPLE.sha256);
    expect(contentTypeOf(EXAMPLE_QUOTE_PDF)).toBe(ATTACHMENT_EXAMPLE.contentType);
  });

  it('is a PDF whose cross-reference table points at its objects', () => {
    const text = EXAMPLE_QUOTE_PDF.toString('latin1');
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, i) => expect(text.slice(offset, offset + 8)).toBe(`${i + 1} 0 obj\n`));
  });
});
