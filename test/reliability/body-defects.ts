import fc from 'fast-check';
import { MAX_BODY_DEPTH, MAX_BODY_ENTRIES } from '@app/common';
import { resolveSchema, type Schema } from './openapi.js';
import { bodyObject, bodyText, defect, setOwn, textDefect, type Defect, type FuzzContext } from './defect.js';
import { invalidValue, jsonJunk, RESERVED_NAMES, validObject, word } from './schema-values.js';

/** Defects of the body: of its fields and list items, of the body as a whole, and of its JSON text. */

/** Fields of the body schema that hold lists of objects (certifications, insurance). */
function objectLists(context: FuzzContext, schema: Schema): [string, Schema][] {
  return Object.entries(schema.properties ?? {})
    .map(([field, property]): [string, Schema] => [field, resolveSchema(context.doc, property)])
    .filter(
      ([, property]) => property.type === 'array' && resolveSchema(context.doc, property.items).type === 'object',
    );
}

/** A list of valid items with one broken item: not an object, a required field missing, unknown or bad field. */
function brokenItemDefects(context: FuzzContext, field: string, list: Schema): fc.Arbitrary<Defect> {
  const item = resolveSchema(context.doc, list.items);
  const itemFields = Object.keys(item.properties ?? {});
  const broken: fc.Arbitrary<[string, (value: Record<string, unknown>) => unknown]>[] = [
    fc
      .oneof(fc.array(jsonJunk(2), { maxLength: 2 }), fc.string(), fc.integer(), fc.boolean(), fc.constant(null))
      .map((value) => ['item not an object', () => value]),
    fc
      .tuple(word(), jsonJunk(1))
      .filter(([name]) => !itemFields.includes(name))
      .map(([name, value]) => [
        'unknown item field',
        (valid) => {
          setOwn(valid, name, value);
          return valid;
        },
      ]),
    fc.constantFrom(...RESERVED_NAMES).map((name) => [
      `reserved item field ${name}`,
      (valid) => {
        setOwn(valid, name, {});
        return valid;
      },
    ]),
  ];
  for (const required of item.required ?? [])
    broken.push(
      fc.constant([
        `item without ${required}`,
        (valid) => {
          delete valid[required];
          return valid;
        },
      ]),
    );
  for (const [name, property] of Object.entries(item.properties ?? {}))
    broken.push(
      invalidValue(context, property).map((value) => [
        `invalid item ${name}`,
        (valid) => {
          valid[name] = value;
          return valid;
        },
      ]),
    );
  return fc
    .tuple(
      fc.array(validObject(context, item), { maxLength: 2 }),
      validObject(context, item),
      fc.oneof(...broken),
      fc.nat(2),
    )
    .map(([items, base, [label, breakItem], at]) =>
      defect(`${field}: ${label}`, (draft) => {
        const position = Math.min(at, items.length);
        bodyObject(draft)[field] = [...items.slice(0, position), breakItem({ ...base }), ...items.slice(position)];
      }),
    );
}

export function bodyDefects(context: FuzzContext, schema: Schema): fc.Arbitrary<Defect> {
  const fields = Object.keys(schema.properties ?? {});
  const choices: fc.Arbitrary<Defect>[] = [
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 20 }), jsonJunk(2))
      .filter(([name]) => !fields.includes(name))
      .map(([name, value]) => defect('unknown property', (draft) => setOwn(bodyObject(draft), name, value))),
    fc
      .tuple(fc.constantFrom(...RESERVED_NAMES), jsonJunk(2))
      .map(([name, value]) => defect(`reserved property ${name}`, (draft) => setOwn(bodyObject(draft), name, value))),
  ];
  if (fields.length > 0)
    choices.push(
      fc
        .constantFrom(...fields)
        .chain((field) =>
          invalidValue(context, schema.properties?.[field]).map((value) =>
            defect(`invalid ${field}`, (draft) => (bodyObject(draft)[field] = value)),
          ),
        ),
    );
  const required = schema.required ?? [];
  if (required.length > 0)
    choices.push(
      fc
        .constantFrom(...required)
        .map((field) => defect(`missing ${field}`, (draft) => delete bodyObject(draft)[field])),
    );
  for (const [field, list] of objectLists(context, schema)) choices.push(brokenItemDefects(context, field, list));
  return fc.oneof(...choices);
}

/** Bodies that are not a JSON object, or not JSON as the API takes it: refused before validation. */
export function wholeBodyDefects(): fc.Arbitrary<Defect>[] {
  const replaceText = (label: string, text: string, contentType = 'application/json') =>
    textDefect(label, (draft) => {
      draft.text = text;
      draft.headers['Content-Type'] = contentType;
    });
  return [
    fc
      .constantFrom('[]', '[{}]', '"text"', '42', 'null', 'true', 'false')
      .map((text) => replaceText('body not an object', text)),
    fc
      .constantFrom(
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'text/json',
      )
      .map((type) => defect(`Content-Type ${type}`, (draft) => (draft.headers['Content-Type'] = type))),
    fc
      .constantFrom('latin1', 'iso-8859-1', 'us-ascii', 'utf-32', 'koi8-r')
      .map((charset) =>
        defect(
          `charset ${charset}`,
          (draft) => (draft.headers['Content-Type'] = `application/json; charset=${charset}`),
        ),
      ),
  ];
}

/** Text the JSON parser (or the shape limits in front of it) refuses; sent with any method. */
export function unparsableDefects(): fc.Arbitrary<Defect> {
  const asJson = (label: string, make: (text: string) => string) =>
    textDefect(label, (draft) => {
      draft.text = make(bodyText(draft));
      draft.headers['Content-Type'] = 'application/json';
    });
  return fc.oneof(
    fc.nat().map((cut) => asJson('truncated JSON', (text) => text.slice(0, 1 + (cut % Math.max(1, text.length - 1))))),
    fc
      .constantFrom('}', ',', ']', ' x', '\u0000', "'", '/* c */')
      .map((junk) => asJson('JSON with trailing junk', (text) => text + junk)),
    fc
      .constantFrom(
        "{'a':1}",
        '{"a":1,}',
        '{"a":NaN}',
        '{"a":undefined}',
        '{a:1}',
        '{"a":01}',
        '{"a":"\u0001"}',
        '{"a"',
      )
      .map((bad) => asJson('malformed JSON', () => bad)),
    fc
      .tuple(fc.integer({ min: MAX_BODY_DEPTH + 1, max: 5_000 }), fc.boolean())
      .map(([depth, arrays]) =>
        asJson(`nested ${depth} deep`, () =>
          arrays
            ? `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`
            : `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`,
        ),
      ),
    fc.integer({ min: MAX_BODY_ENTRIES + 1, max: MAX_BODY_ENTRIES + 2_000 }).map((entries) =>
      asJson(
        `${entries} entries`,
        () =>
          `{"a":[${Array<string>(entries - 1)
            .fill('0')
            .join(',')}]}`,
      ),
    ),
  );
}
