import { Transform } from 'class-transformer';
import { registerDecorator, ValidateIf, ValidationOptions } from 'class-validator';

/** An optional string that is empty (after trimming) is stored as `null`. */
export const EmptyToNull = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (value === '' ? null : value));

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/;

/** Parses an RFC 3339 date-time, or a date alone read as midnight UTC; undefined when it is neither. */
export function parseDateTimeInput(value: string): Date | undefined {
  if (!DATE_ONLY.test(value) && !DATE_TIME.test(value)) return undefined;
  const date = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) return undefined;
  // Reject calendar overflow such as 2027-02-31, which Date silently rolls into March.
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const local = DATE_ONLY.test(value) ? date : new Date(Date.UTC(year, month - 1, day));
  if (local.getUTCFullYear() !== year || local.getUTCMonth() !== month - 1 || local.getUTCDate() !== day)
    return undefined;
  return date;
}

/** Normalises a valid date-time input to UTC ISO 8601 with milliseconds; leaves anything else for the validator. */
export const NormalizeDateTime = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value === '' ? null : value;
    if (value === '') return null;
    return parseDateTimeInput(value)?.toISOString() ?? value;
  });

export function IsDateTimeInput(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isDateTimeInput',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: '$property must be an ISO 8601 date-time or a date (YYYY-MM-DD)',
        ...options,
      },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseDateTimeInput(value) !== undefined,
      },
    });
}

/**
 * Query integers arrive as text: digits, with a minus sign or none, become a number (so `page=-1` is refused by
 * its range, "must not be less than 1", not as "not an integer"); anything else stays text and fails `@IsInt`.
 */
export const ToInteger = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value,
  );

/**
 * A comma-separated list (`status=reported,in_progress`) becomes an array; empty parts are dropped, and a list
 * left with none (`types=`, `status=,`) is no filter at all, as an empty `search` is: never a filter that
 * matches nothing.
 */
export const CommaList = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    // The parameter repeated (`status=a&status=b,c`) arrives as an array: each value is a list too.
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (!values.every((item): item is string => typeof item === 'string')) return value;
    const parts = values
      .flatMap((item) => item.split(','))
      .map((part) => part.trim())
      .filter((part) => part !== '');
    return parts.length > 0 ? parts : undefined;
  });

/**
 * May be left out but is not nullable: unlike `@IsOptional()`, `null` is still validated (and fails the type
 * check) instead of reaching a NOT NULL column.
 */
export const IsOmittable = (): PropertyDecorator =>
  ValidateIf((_object: object, value: unknown) => value !== undefined);
