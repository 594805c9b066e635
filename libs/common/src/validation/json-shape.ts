/**
 * How deeply a request body may nest objects and arrays. Our bodies need 3 levels (a record, one of
 * its lists, an item); every pass over a parsed body (trimming, class-transformer, class-validator,
 * the idempotency fingerprint) walks it, and some of them recurse, so depth is refused before parsing.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * How many object members and array items a request body may hold in total. The largest valid body has
 * under 900 (a record with a list of 500 texts, another of 50 and two lists of 50
 * items of 3 fields); validating tens of thousands of unknown keys blocked the event loop for seconds, so such
 * bodies are refused before parsing.
 */
export const MAX_BODY_ENTRIES = 10_000;

export type JsonShapeViolation =
  { rule: 'depth'; limit: number; message: string } | { rule: 'entries'; limit: number; message: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isJsonWhitespace = (byte: number): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * One pass over the raw UTF-8 text of a JSON body, without parsing or recursing: the first limit it breaks,
 * or undefined. Structural characters are ASCII and every byte of a multi-byte UTF-8 sequence is ≥ 0x80, so
 * scanning bytes is exact. Text that is not JSON is left for the parser to refuse; the scan only has to stay
 * linear and never throw on it.
 */
export function findJsonShapeViolation(
  utf8: Uint8Array,
  limits: { depth: number; entries: number } = { depth: MAX_BODY_DEPTH, entries: MAX_BODY_ENTRIES },
): JsonShapeViolation | undefined {
  let depth = 0;
  let entries = 0;
  let inString = false;
  let escaped = false;
  // Just after `{` or `[`: the next significant byte is the container's first entry unless it closes it.
  let openedContainer = false;
  for (let index = 0; index < utf8.length; index++) {
    const byte = utf8[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (isJsonWhitespace(byte)) continue;
    if (openedContainer) {
      openedContainer = false;
      if (byte !== CLOSE_OBJECT && byte !== CLOSE_ARRAY) entries++;
    }
    switch (byte) {
      case QUOTE:
        inString = true;
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        depth++;
        if (depth > limits.depth) {
          return {
            rule: 'depth',
            limit: limits.depth,
            message: `Request body nests objects and arrays deeper than ${limits.depth} levels`,
          };
        }
        openedContainer = true;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        depth--;
        break;
      case COMMA:
        entries++;
        break;
    }
    if (entries > limits.entries) {
      return {
        rule: 'entries',
        limit: limits.entries,
        message: `Request body holds more than ${limits.entries} properties and array items in total`,
      };
    }
  }
  return undefined;
}
