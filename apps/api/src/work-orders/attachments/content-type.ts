/** The contents an attachment may have (CONTRACT "Attachments"), decided from the bytes, never from a name. */
export const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf'] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];

/** How many leading bytes `contentTypeOf` needs to decide. */
export const SNIFF_BYTES = 16;

/** The brands of an ISO-BMFF `ftyp` box that mean HEIC/HEIF still images. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

const startsWith = (bytes: Buffer, signature: number[], at = 0): boolean =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (bytes: Buffer, from: number, to: number): string =>
  bytes.length >= to ? bytes.toString('latin1', from, to) : '';

/** The accepted type the first bytes of a file show (at least `SNIFF_BYTES` of them, unless the file is shorter). */
export function contentTypeOf(head: Buffer): AcceptedType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 4, 8) === 'ftyp' && HEIC_BRANDS.has(ascii(head, 8, 12))) return 'image/heic';
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  return undefined;
}

/** What a part's declared type names among the accepted ones (`image/jpg` and `image/heif` included), if any. */
export function declaredTypeOf(declared: string | undefined): AcceptedType | undefined {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'image/jpg' || type === 'image/pjpeg') return 'image/jpeg';
  if (type === 'image/heif') return 'image/heic';
  return (ACCEPTED_TYPES as readonly string[]).includes(type) ? (type as AcceptedType) : undefined;
}
