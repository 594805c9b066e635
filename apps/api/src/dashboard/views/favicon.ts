/**
 * The service's icon — a white house on the brand's blue rounded square — as an SVG for the dashboard's pages and
 * as a 32×32 ICO for `/favicon.ico`, which browsers ask for on every site. Both come from the one drawing below;
 * the ICO is rasterised here once at start-up (no image file, no build step).
 */

const SIZE = 32;
const BRAND = [0x1f, 0x5e, 0xff] as const;
const WHITE = [0xff, 0xff, 0xff] as const;

type Point = readonly [number, number];

/** The drawing, in a 32-unit square. */
const BACKGROUND = { radius: 7 };
const ROOF: readonly Point[] = [
  [16, 5],
  [4, 16],
  [28, 16],
];
const WALLS = { x: 8, y: 15, width: 16, height: 12 };
const DOOR = { x: 14, y: 19, width: 4, height: 8 };

export const FAVICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}">` +
  `<rect width="${SIZE}" height="${SIZE}" rx="${BACKGROUND.radius}" fill="#1f5eff"/>` +
  `<g fill="#fff"><path d="M${ROOF.map(([x, y]) => `${x} ${y}`).join('L')}Z"/>` +
  `<rect x="${WALLS.x}" y="${WALLS.y}" width="${WALLS.width}" height="${WALLS.height}"/></g>` +
  `<rect x="${DOOR.x}" y="${DOOR.y}" width="${DOOR.width}" height="${DOOR.height}" fill="#1f5eff"/>` +
  `</svg>`;

function inRect(x: number, y: number, rect: { x: number; y: number; width: number; height: number }): boolean {
  return x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
}

function inTriangle(x: number, y: number, [a, b, c]: readonly Point[]): boolean {
  const side = (p: Point, q: Point) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const [ab, bc, ca] = [side(a, b), side(b, c), side(c, a)];
  return (ab >= 0 && bc >= 0 && ca >= 0) || (ab <= 0 && bc <= 0 && ca <= 0);
}

function inRoundedSquare(x: number, y: number): boolean {
  const r = BACKGROUND.radius;
  const dx = Math.max(r - x, 0, x - (SIZE - r));
  const dy = Math.max(r - y, 0, y - (SIZE - r));
  return x >= 0 && x < SIZE && y >= 0 && y < SIZE && dx * dx + dy * dy <= r * r;
}

/** The colour at a point of the drawing, or undefined where it is transparent. */
function colourAt(x: number, y: number): readonly [number, number, number] | undefined {
  if (!inRoundedSquare(x, y)) return undefined;
  if (inRect(x, y, DOOR)) return BRAND;
  if (inTriangle(x, y, ROOF) || inRect(x, y, WALLS)) return WHITE;
  return BRAND;
}

/** RGBA pixels, top row first, each the average of 4×4 samples (smooth edges). */
export function faviconPixels(): Uint8Array {
  const pixels = new Uint8Array(SIZE * SIZE * 4);
  const samples = 4;
  for (let row = 0; row < SIZE; row++) {
    for (let column = 0; column < SIZE; column++) {
      let [red, green, blue, covered] = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = colourAt(column + (sx + 0.5) / samples, row + (sy + 0.5) / samples);
          if (!colour) continue;
          red += colour[0];
          green += colour[1];
          blue += colour[2];
          covered++;
        }
      }
      const at = (row * SIZE + column) * 4;
      if (covered === 0) continue;
      pixels.set(
        [
          Math.round(red / covered),
          Math.round(green / covered),
          Math.round(blue / covered),
          Math.round((255 * covered) / samples ** 2),
        ],
        at,
      );
    }
  }
  return pixels;
}

/**
 * An ICO file holding one 32×32 32-bit bitmap: the ICONDIR header, one directory entry, then a BITMAPINFOHEADER
 * (height doubled, as icons count the AND mask), the BGRA rows bottom-up, and an all-zero AND mask (the alpha
 * channel says what is transparent).
 */
function icoOf(rgba: Uint8Array): Buffer {
  const pixelBytes = SIZE * SIZE * 4;
  const maskBytes = SIZE * 4; // one bit per pixel, rows padded to 4 bytes
  const image = Buffer.alloc(40 + pixelBytes + maskBytes);
  image.writeUInt32LE(40, 0);
  image.writeInt32LE(SIZE, 4);
  image.writeInt32LE(SIZE * 2, 8);
  image.writeUInt16LE(1, 12);
  image.writeUInt16LE(32, 14);
  image.writeUInt32LE(pixelBytes + maskBytes, 20);
  for (let row = 0; row < SIZE; row++) {
    for (let column = 0; column < SIZE; column++) {
      const from = (row * SIZE + column) * 4;
      const to = 40 + ((SIZE - 1 - row) * SIZE + column) * 4;
      image.set([rgba[from + 2], rgba[from + 1], rgba[from], rgba[from + 3]], to);
    }
  }
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}

export const FAVICON_ICO = icoOf(faviconPixels());
