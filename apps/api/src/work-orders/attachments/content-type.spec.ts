import { describe, expect, it } from '@jest/globals';
import { contentTypeOf, declaredTypeOf } from './content-type.js';

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('contentTypeOf', () => {
  it('knows the five accepted types by their magic bytes', () => {
    expect(contentTypeOf(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF\0rest'))).toBe('image/jpeg');
    expect(contentTypeOf(bytes([0x89], 'PNG\r\n', [0x1a, 0x0a], 'IHDR'))).toBe('image/png');
    expect(contentTypeOf(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp');
    expect(contentTypeOf(bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0]))).toBe('image/heic');
    expect(contentTypeOf(bytes([0, 0, 0, 0x18], 'ftypmif1', [0, 0, 0, 0]))).toBe('image/heic');
    expect(contentTypeOf(bytes('%PDF-1.7\n'))).toBe('application/pdf');
  });

  it('refuses anything else, and files too short to tell', () => {
    expect(contentTypeOf(bytes('<html><script>'))).toBeUndefined();
    expect(contentTypeOf(bytes('GIF89a'))).toBeUndefined();
    expect(contentTypeOf(bytes([0, 0, 0, 0x18], 'ftypisom'))).toBeUndefined();
    expect(contentTypeOf(bytes('RIFF', [1, 2, 3, 4], 'WAVE'))).toBeUndefined();
    expect(contentTypeOf(bytes([0xff, 0xd8]))).toBeUndefined();
    expect(contentTypeOf(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('declaredTypeOf', () => {
  it('names an accepted type, with its aliases, or none', () => {
    expect(declaredTypeOf('image/PNG')).toBe('image/png');
    expect(declaredTypeOf('image/jpg')).toBe('image/jpeg');
    expect(declaredTypeOf('image/heif')).toBe('image/heic');
    expect(declaredTypeOf('application/pdf; name=x')).toBe('application/pdf');
    expect(declaredTypeOf('application/octet-stream')).toBeUndefined();
    expect(declaredTypeOf(undefined)).toBeUndefined();
  });
});
