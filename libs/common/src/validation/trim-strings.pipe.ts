import { ArgumentMetadata, BadRequestException, Injectable, PipeTransform } from '@nestjs/common';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  // Express 5 parses query strings into null-prototype objects.
  return prototype === Object.prototype || prototype === null;
}

function trimDeep(value: unknown, path: string): unknown {
  if (typeof value === 'string') {
    // PostgreSQL cannot store NUL in text or jsonb; refuse it here rather than fail on insert.
    if (value.includes('\u0000')) throw new BadRequestException(`${path || 'value'} must not contain NUL characters`);
    return value.trim();
  }
  if (Array.isArray(value))
    return value.map((item, index) => trimDeep(item, path ? `${path}.${index}` : String(index)));
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, trimDeep(item, path ? `${path}.${key}` : key)]),
    );
  }
  return value;
}

/** Every string input is trimmed before it is validated (CONTRACT "Validation"). */
@Injectable()
export class TrimStringsPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'body' || metadata.type === 'query' ? trimDeep(value, '') : value;
  }
}
