import fc from 'fast-check';
import { linkedParameter, resolveSchema, type OpenApiDocument, type Schema } from './openapi.js';
import type { RecordIds } from './team-records.js';

/** Valid and invalid values for the fields the OpenAPI document describes, as fast-check arbitraries. */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Names that reach prototypes instead of data (`__proto__`, `constructor`, `toString`…): refused like unknown ones. */
export const RESERVED_NAMES: readonly string[] = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

export interface SchemaContext {
  doc: OpenApiDocument;
  collections: Map<string, string>;
  /** The fuzzing team's records, so that links in otherwise valid bodies point at something real. */
  own: RecordIds;
}

export const ALPHANUMERIC = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
/** Text that is not empty after trimming and holds no NUL (which is refused on its own). */
const someText = (maxLength: number): fc.Arbitrary<string> =>
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(maxLength, 24) })
    .filter((text) => text.trim().length > 0 && text.length <= maxLength && !text.includes('\u0000'));
export const word = (maxLength = 12): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...ALPHANUMERIC), minLength: 1, maxLength });

const dateTime = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .chain((date) => fc.constantFrom(date.toISOString(), date.toISOString().slice(0, 10)));

/** A valid value for a field; `field` names it so that links (`unitId`) take one of the team's ids. */
export function validValue(context: SchemaContext, raw: Schema | undefined, field: string): fc.Arbitrary<unknown> {
  const schema = resolveSchema(context.doc, raw);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const linked = linkedParameter(field, context.collections);
  const linkedId = linked ? context.own.get(linked) : undefined;
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return linkedId ? fc.constant(linkedId) : fc.uuid({ version: 4 });
      if (schema.format === 'email') return fc.constantFrom('ann@example.com', 'first.last+tag@example.co.uk');
      if (schema.format === 'date-time') return dateTime;
      if (schema.format === 'uri')
        return fc.constantFrom('https://hooks.example.com/a', 'https://example.org/webhooks');
      return someText(schema.maxLength ?? 200);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e12,
        minExcluded: schema.exclusiveMinimum === true,
        max: schema.maximum ?? 1e12,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = resolveSchema(context.doc, schema.items);
      if (item.format === 'uuid') return fc.subarray(linkedId ? [linkedId] : []);
      // Distinct items within the documented bounds (lists of enum values refuse duplicates).
      return fc.uniqueArray(validValue(context, schema.items, field), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
        selector: (value) => JSON.stringify(value),
      });
    }
    case 'object':
      return validObject(context, schema);
    default:
      return fc.constant(undefined);
  }
}

/** A valid object: every required field and any of the optional ones. */
export function validObject(context: SchemaContext, raw: Schema): fc.Arbitrary<Record<string, unknown>> {
  const schema = resolveSchema(context.doc, raw);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [field, property] of Object.entries(schema.properties ?? {}))
    model[field] = validValue(context, property, field);
  return fc.record(model, { requiredKeys: schema.required ?? [] });
}

/** Junk of any JSON type nested up to `depth`: objects, arrays, strings, numbers, booleans, null. */
export const jsonJunk = (depth = 3): fc.Arbitrary<unknown> => fc.jsonValue({ maxDepth: depth });

/** Strings that are not a UUID even after trimming, and not empty (an empty optional id is read as null). */
export const notUuid: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 40 }),
    fc.uuid().map((id) => id.replace(/-/g, '')),
    fc.uuid().map((id) => `${id}0`),
    fc.uuid().map((id) => id.slice(1)),
    fc.uuid().map((id) => `{${id}}`),
    fc.uuid().map((id) => `g${id.slice(1)}`),
    fc.constantFrom('null', 'undefined', '0', '-1', 'NaN', '[]', '{}', '..', '%00', 'ñ', 'DROP TABLE units'),
  )
  .filter((text) => text.trim().length > 0 && !UUID.test(text.trim()));

const notDateTime: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'tomorrow',
    '2027-02-31',
    '2027-13-01',
    '2027-00-10',
    '31/01/2027',
    '2027-1-5',
    '2027-01-31T25:00:00Z',
    '2027-01-31T10:00:00',
    '1738300000000',
    '2027-01-31Z',
  ),
  fc.string({ unit: fc.constantFrom(...'abcdefxyzT:-'), minLength: 1, maxLength: 20 }),
);

/** Text over `maxLength` characters even after trimming. */
const tooLong = (maxLength: number): fc.Arbitrary<string> =>
  fc
    .tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom(...ALPHANUMERIC))
    .map(([extra, char]) => char.repeat(maxLength + extra));

/** NaN and ±Infinity serialise as `null`, which a nullable field accepts: only finite numbers are wrong. */
const finiteNumber = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));

/** Numbers whose JSON an enum field could read as one of its values (`priority` takes 0–3 as well as "0"–"3"). */
const numberOutside = (values: unknown[]): fc.Arbitrary<number> =>
  finiteNumber.filter((value) => !values.map(String).includes(String(value)));

/** A value of the wrong JSON type for `schema`. */
function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const nested = fc.oneof(fc.array(jsonJunk(2), { maxLength: 3 }), fc.dictionary(word(), jsonJunk(2), { maxKeys: 3 }));
  switch (schema.type) {
    case 'string':
      return fc.oneof(schema.enum ? numberOutside(schema.enum) : finiteNumber, fc.boolean(), nested);
    case 'number':
    case 'integer':
      return fc.oneof(fc.string(), fc.boolean(), nested);
    case 'boolean':
      return fc.oneof(fc.string(), fc.integer(), nested);
    case 'array':
      return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.dictionary(word(), jsonJunk(2), { maxKeys: 3 }));
    case 'object':
      return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(jsonJunk(2), { maxLength: 3 }));
    default:
      // An enum without a declared type (the plugin's allOf/$ref enums).
      return schema.enum ? fc.oneof(numberOutside(schema.enum), fc.boolean(), nested) : nested;
  }
}

/**
 * Values the field must refuse, whatever the rest of the body: wrong types, `null` where not nullable,
 * lengths, enums, formats and ranges past the documented limits, bad list items. Undefined when the schema
 * states nothing a value could break.
 */
export function invalidValue(context: SchemaContext, raw: Schema | undefined): fc.Arbitrary<unknown> {
  const schema = resolveSchema(context.doc, raw);
  const choices: fc.Arbitrary<unknown>[] = [wrongType(schema)];
  if (!schema.nullable) choices.push(fc.constant(null));
  if (schema.enum) {
    const values = schema.enum.map(String);
    choices.push(fc.string({ maxLength: 20 }).filter((text) => !values.includes(text.trim())));
  } else if (schema.type === 'string') {
    if (schema.maxLength !== undefined) choices.push(tooLong(schema.maxLength));
    if ((schema.minLength ?? 0) > 0) choices.push(fc.constantFrom('', ' ', '\t', ' \n '));
    if (schema.format === 'uuid') choices.push(notUuid);
    if (schema.format === 'email')
      choices.push(
        word(40),
        fc.constantFrom('a@', '@example.com', 'a@b', 'a b@example.com', `${'a'.repeat(250)}@example.com`),
      );
    if (schema.format === 'date-time') choices.push(notDateTime);
    choices.push(fc.constant('a\u0000b'));
  } else if (schema.type === 'number' || schema.type === 'integer') {
    if (schema.minimum !== undefined) {
      const below = schema.exclusiveMinimum ? schema.minimum : schema.minimum - 1;
      choices.push(fc.oneof(fc.constant(below), fc.integer({ min: -1e9, max: Math.floor(below) })));
    }
    if (schema.maximum !== undefined) choices.push(fc.integer({ min: Math.ceil(schema.maximum) + 1, max: 2e9 }));
    if (schema.type === 'integer') choices.push(fc.constantFrom(0.5, 1.25, -7.5));
  } else if (schema.type === 'array') {
    const item = resolveSchema(context.doc, schema.items);
    if (schema.maxItems !== undefined) {
      const filler =
        item.type === 'object' ? {} : item.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : 'x';
      choices.push(
        fc.integer({ min: schema.maxItems + 1, max: schema.maxItems + 5 }).map((n) => Array(n).fill(filler)),
      );
    }
    if (item.type !== 'object') {
      // One bad item among good ones.
      choices.push(
        fc
          .tuple(fc.array(validValue(context, item, ''), { maxLength: 2 }), invalidValue(context, item), fc.nat(2))
          .map(([items, bad, at]) => [...items.slice(0, at), bad, ...items.slice(at)]),
      );
    }
  }
  return fc.oneof(...choices);
}
