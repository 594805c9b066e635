import { applyDecorators, type Type as ClassType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { EmptyToNull, IsDateTimeInput, IsOmittable, NormalizeDateTime } from './transforms.js';

// One line per DTO field: each decorator below carries the validation, the transformation and the OpenAPI
// metadata of one kind of field. class-validator reports a property's rules in the order they are registered
// and the pipe keeps the first failure, so the type check is registered first: a missing or mistyped value is
// reported as such, not as "too long". The swagger plugin still adds `required` and the JSDoc description.

type Extra = Pick<ApiPropertyOptions, 'example' | 'description' | 'format'>;

/** A required string: not empty after trimming, at most `max` characters. */
export const RequiredText = (max: number, extra: Extra = {}): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ type: String, minLength: 1, maxLength: max, ...extra }),
    IsString(),
    IsNotEmpty(),
    MaxLength(max),
  );

/** An optional, nullable string of at most `max` characters; empty after trimming is stored as `null`. */
export const OptionalText = (max: number, extra: Extra = {}): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: max, nullable: true, ...extra }),
    IsString(),
    MaxLength(max),
    EmptyToNull(),
    IsOptional(),
  );

/** An optional, nullable email address (at most 254 characters); empty is stored as `null`. */
export const OptionalEmail = (extra: Extra = {}): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'email', maxLength: 254, nullable: true, ...extra }),
    IsEmail(),
    MaxLength(254),
    EmptyToNull(),
    IsOptional(),
  );

/** A required id of another record of the team (whether it exists is the service's question). */
export const RequiredId = (extra: Extra = {}): PropertyDecorator =>
  applyDecorators(ApiProperty({ type: String, format: 'uuid', ...extra }), IsUUID('loose'));

/** An optional, nullable id of another record of the team; `null` or empty removes the link. */
export const OptionalId = (extra: Extra = {}): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, ...extra }),
    IsUUID('loose'),
    EmptyToNull(),
    IsOptional(),
  );

/** An optional, nullable date-time; a date alone is read as midnight UTC and stored as ISO 8601. */
export const OptionalDateTime = (extra: Extra = {}): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, ...extra }),
    IsDateTimeInput(),
    NormalizeDateTime(),
    IsOptional(),
  );

/**
 * One of `values`; may be left out (then `fallback` applies on create) but not `null`. `enumName` names the
 * enum's schema in the OpenAPI document.
 */
export const OneOf = (
  values: readonly string[],
  enumName: string,
  options: { fallback?: string; message?: string; example?: string } = {},
): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ enum: values, enumName, default: options.fallback, example: options.example }),
    IsIn(values, options.message ? { message: options.message } : {}),
    IsOmittable(),
  );

/** An optional list (not nullable) of at most `maxItems` strings of 1 to `maxLength` characters. */
export const TextList = (maxItems: number, maxLength: number, extra: Extra = {}): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: [String],
      maxItems,
      default: [],
      items: { type: 'string', minLength: 1, maxLength },
      ...extra,
    }),
    IsArray(),
    ArrayMaxSize(maxItems),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxLength(maxLength, { each: true }),
    IsOmittable(),
  );

/** An optional list (not nullable) of at most `maxItems` ids of the team's records. */
export const IdList = (maxItems: number, extra: Extra = {}): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems, items: { type: 'string', format: 'uuid' }, ...extra }),
    IsArray(),
    ArrayMaxSize(maxItems),
    IsUUID('all', { each: true }),
    IsOmittable(),
  );

/** Names the first item of a list that is not an object by its path: `insurance.0 must be an object`. */
function firstItemNotObject({ property, value }: ValidationArguments): string {
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const index = items.findIndex((item) => item === null || typeof item !== 'object' || Array.isArray(item));
  return index >= 0 ? `${property}.${index} must be an object` : `each value in ${property} must be an object`;
}

/**
 * An optional list (not nullable) of at most `maxItems` objects, each validated as `item`. The object check
 * comes before the nested validation: `ValidateNested` walks into an item that is itself an array and finds
 * nothing to check, so `[[]]` used to pass and store an item with its required fields missing.
 */
export const ItemList = (item: ClassType<object>, maxItems: number, extra: Extra = {}): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: [item], maxItems, default: [], ...extra }),
    IsArray(),
    ArrayMaxSize(maxItems),
    IsObject({ each: true, message: firstItemNotObject }),
    Type(() => item),
    ValidateNested({ each: true }),
    IsOmittable(),
  );
