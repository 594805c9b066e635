import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { OptionalText } from './fields.js';

// `externalRef`: the id a record has in the integrator's own system, on every resource. One length, one
// description, and the three places it appears: the write bodies, the record, and the lists' filter.

/** The longest `externalRef`, in characters after trimming. */
export const EXTERNAL_REF_MAX_LENGTH = 100;

const DESCRIPTION =
  'The id this record has in your own system (at most 100 characters, trimmed; empty or `null` clears it). ' +
  'Unique per team among records of this kind: another record with the same value is a 409. ' +
  'Find the record by it with the list’s `externalRef` filter.';

/**
 * The body field. Its example is `null`: Swagger UI pre-fills a POST with the examples, and a fixed value would
 * make a second "Try it out" (or one beside the demo record) a 409.
 */
export const ExternalRef = (): PropertyDecorator =>
  OptionalText(EXTERNAL_REF_MAX_LENGTH, { description: DESCRIPTION, example: null });

/** The record's property (`null` when it has none). */
export const ExternalRefProperty = (example: string | null): PropertyDecorator =>
  ApiProperty({
    type: String,
    nullable: true,
    maxLength: EXTERNAL_REF_MAX_LENGTH,
    description:
      'The id this record has in your own system, `null` when none; unique per team among records of this kind.',
    example,
  });

/**
 * The list filter. No example: Swagger UI would pre-fill it and filter "Try it out" lists down to one record.
 * Empty is refused rather than read as "no filter": a lookup by an empty id must not answer every record.
 */
export const ExternalRefFilter = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      minLength: 1,
      maxLength: EXTERNAL_REF_MAX_LENGTH,
      description:
        'Only the record whose `externalRef` is exactly this (case-sensitive; trimmed): at most one, since it is unique per team.',
    }),
    IsOptional(),
    // Applied in this order, so checked in it, and only the first failure is told: a parameter given twice (an
    // array) is "not a string", not "too long".
    IsString(),
    IsNotEmpty(),
    MaxLength(EXTERNAL_REF_MAX_LENGTH),
  );

/** Whether a response class (a record's schema) carries `externalRef`. */
export function hasExternalRef(model: object): boolean {
  const properties = (Reflect.getMetadata(
    'swagger/apiModelPropertiesArray',
    (model as { prototype: object }).prototype,
  ) ?? []) as string[];
  return properties.includes(':externalRef');
}
