import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, MaxLength, ValidateBy } from 'class-validator';
import { CONTROL_CHARACTER } from '../http/dashboard-request.js';

// The dashboard's form fields, as composite decorators: the messages are the page's, naming the field by its
// visible label. Rules run in the order listed and the first that fails is shown, so "sent once" (a repeated
// field arrives as a list) and "no control characters" (PostgreSQL cannot store NUL) come first.

const WithoutControlCharacters = (label: string, each = false): PropertyDecorator =>
  ValidateBy(
    {
      name: 'withoutControlCharacters',
      validator: { validate: (value: unknown) => typeof value !== 'string' || !CONTROL_CHARACTER.test(value) },
    },
    { each, message: `${label} must not contain control characters.` },
  );

interface TextOptions {
  /** Leading and trailing spaces are dropped before the other rules. */
  trim?: boolean;
  required?: boolean;
  max?: number;
}

/** A text field; a field that was not sent reads as empty (give the DTO property an `''` default). */
export const FormText = (label: string, { trim = false, required = false, max }: TextOptions = {}): PropertyDecorator =>
  applyDecorators(
    ...(trim ? [Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))] : []),
    IsString({ message: `${label} must be sent once.` }),
    WithoutControlCharacters(label),
    ...(required ? [IsNotEmpty({ message: `${label} is required.` })] : []),
    ...(max === undefined ? [] : [MaxLength(max, { message: `${label} must be at most ${max} characters.` })]),
  );

/** One of the given values (radio buttons, a select). */
export const FormChoice = (values: readonly string[], message: string): PropertyDecorator =>
  applyDecorators(IsIn(values, { message }));

/** A multiple select: none, one or several values, each text without control characters. */
export const FormList = (label: string): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }): unknown[] =>
      Array.isArray(value) ? (value as unknown[]) : value === undefined ? [] : [value],
    ),
    IsString({ each: true, message: `${label} must be text.` }),
    WithoutControlCharacters(label, true),
  );

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDay(value: string): boolean {
  const at = DAY.test(value) ? Date.parse(`${value}T00:00:00.000Z`) : Number.NaN;
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === value;
}

/** Empty, or a real calendar day written YYYY-MM-DD. */
export const FormDay = (label: string, example: string): PropertyDecorator =>
  applyDecorators(
    FormText(label),
    ValidateBy(
      {
        name: 'calendarDay',
        validator: {
          validate: (value: unknown) => value === '' || (typeof value === 'string' && isCalendarDay(value)),
        },
      },
      { message: `${label} must be a date like ${example}.` },
    ),
  );
