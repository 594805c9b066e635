import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';

function trimDeep(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(trimDeep);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimDeep(item)]));
  }
  return value;
}

/** Every string input is trimmed before it is validated (CONTRACT "Validation"). */
@Injectable()
export class TrimStringsPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'body' || metadata.type === 'query' ? trimDeep(value) : value;
  }
}
