import { ArgumentMetadata, BadRequestException, Injectable, PipeTransform } from '@nestjs/common';
import { inQueryWords } from './validation-errors.js';

/**
 * Property names that reach prototypes rather than data: `__proto__`, `prototype`, and every member of
 * `Object.prototype` (`constructor`, `toString`, `valueOf`, `hasOwnProperty`…). class-transformer skips a key
 * whose name is a function on the DTO instance (so `constructor` and `toString` were dropped before the
 * unknown-property check could see them), and assigning `__proto__` replaces the instance's prototype. They
 * are refused anywhere in a body or query, in the same words as any unknown property (or query parameter).
 */
export const RESERVED_PROPERTY_NAMES: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  // Express 5 parses query strings into null-prototype objects.
  return prototype === Object.prototype || prototype === null;
}

const childPath = (path: string, key: string | number): string => (path ? `${path}.${key}` : String(key));

/** An unpaired UTF-16 surrogate (`"\ud800"` in JSON): no character at all (a `u` regex sees it as one of `Cs`). */
const LONE_SURROGATE = /\p{Cs}/u;

function trimString(value: string, path: string): string {
  // PostgreSQL cannot store NUL in text or jsonb; refuse it here rather than fail on insert.
  if (value.includes('\u0000')) throw new BadRequestException(`${path || 'value'} must not contain NUL characters`);
  // Nor a lone surrogate: it would be stored as U+FFFD, a change the client never asked for.
  if (LONE_SURROGATE.test(value)) {
    throw new BadRequestException(`${path || 'value'} must be valid Unicode text (it holds an unpaired surrogate)`);
  }
  return value.trim();
}

/** A container still to be filled: its copy, the source it copies, and where it sits in the input. */
interface PendingCopy {
  source: Record<string, unknown> | unknown[];
  copy: Record<string, unknown> | unknown[];
  path: string;
}

/**
 * Copies `value` with every string trimmed. Iterative, with an explicit stack: a recursive walk overflowed
 * the call stack on a deeply nested body (the body parser now refuses those too, but this pass must not
 * depend on it). A container's copy takes its place in its parent at once and is filled, key by key in the
 * source's order, when its turn comes, so the copy keeps the key order of the input.
 */
function trimDeep(value: unknown): unknown {
  const copyOf = (item: unknown, path: string, pending: PendingCopy[]): unknown => {
    if (typeof item === 'string') return trimString(item, path);
    if (Array.isArray(item)) {
      const copy: unknown[] = new Array<unknown>(item.length);
      pending.push({ source: item, copy, path });
      return copy;
    }
    if (isPlainObject(item)) {
      for (const key of Object.keys(item)) {
        if (RESERVED_PROPERTY_NAMES.has(key))
          throw new BadRequestException(`property ${childPath(path, key)} should not exist`);
      }
      const copy: Record<string, unknown> = {};
      pending.push({ source: item, copy, path });
      return copy;
    }
    return item;
  };

  const pending: PendingCopy[] = [];
  const root = copyOf(value, '', pending);
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { source, copy, path } = next;
    if (Array.isArray(source)) {
      const items = copy as unknown[];
      for (let index = 0; index < source.length; index++)
        items[index] = copyOf(source[index], childPath(path, index), pending);
    } else {
      const fields = copy as Record<string, unknown>;
      for (const [key, item] of Object.entries(source)) fields[key] = copyOf(item, childPath(path, key), pending);
    }
  }
  return root;
}

/** Every string input is trimmed before it is validated (CONTRACT "Validation"). */
@Injectable()
export class TrimStringsPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body') return trimDeep(value);
    if (metadata.type !== 'query') return value;
    try {
      return trimDeep(value);
    } catch (error) {
      if (error instanceof BadRequestException) throw new BadRequestException(inQueryWords(error.message));
      throw error;
    }
  }
}
