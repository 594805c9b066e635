import { FAVICON_ICO, FAVICON_SVG, faviconPixels } from './favicon.js';

describe('favicon', () => {
  it('is an ICO holding one 32×32 32-bit bitmap', () => {
    const ico = FAVICON_ICO;
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico.readUInt8(6), ico.readUInt8(7), ico.readUInt16LE(12)]).toEqual([32, 32, 32]);
    const [size, offset] = [ico.readUInt32LE(14), ico.readUInt32LE(18)];
    expect(offset + size).toBe(ico.length);
    // BITMAPINFOHEADER: 40 bytes, 32 wide, 64 high (the image and its mask), 32 bits per pixel.
    expect([ico.readUInt32LE(offset), ico.readInt32LE(offset + 4), ico.readInt32LE(offset + 8)]).toEqual([40, 32, 64]);
  });

  it('draws a white house on blue, with transparent rounded corners', () => {
    const pixels = faviconPixels();
    const at = (x: number, y: number) => [...pixels.subarray((y * 32 + x) * 4, (y * 32 + x) * 4 + 4)];
    expect(at(0, 0)[3]).toBe(0);
    expect(at(10, 20)).toEqual([255, 255, 255, 255]); // a wall
    expect(at(15, 24)).toEqual([0x1f, 0x5e, 0xff, 255]); // the door
    expect(at(3, 28)).toEqual([0x1f, 0x5e, 0xff, 255]); // the background
  });

  it('is the same drawing as an SVG', () => {
    expect(FAVICON_SVG).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 32 32">.*<\/svg>$/);
    expect(FAVICON_SVG).toContain('<path d="M16 5L4 16L28 16Z"/>');
  });
});
