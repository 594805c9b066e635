import fc from 'fast-check';
import { resolveSchema, type Operation, type Parameter, type Schema } from './openapi.js';
import { defect, hasHeader, type Defect, type FuzzContext } from './defect.js';
import { ALPHANUMERIC, notUuid, RESERVED_NAMES, validValue, word } from './schema-values.js';

/** Defects of everything but the body: the key, the path's ids, the query string, the headers. */

// --- Authentication ------------------------------------------------------------------------------------------

export function authDefects(context: FuzzContext): fc.Arbitrary<Defect> {
  const set = (label: string, value: string | undefined) =>
    defect(label, (draft) => {
      if (value === undefined) delete draft.headers.Authorization;
      else draft.headers.Authorization = value;
    });
  return fc.oneof(
    fc.constant(set('no Authorization header', undefined)),
    fc.constant(set('key without "Bearer"', context.apiKey)),
    fc.constant(set('truncated key', `Bearer ${context.apiKey.slice(0, -1)}`)),
    fc.constant(set('"Bearer" alone', 'Bearer')),
    fc
      .string({ unit: fc.constantFrom(...ALPHANUMERIC), minLength: 32, maxLength: 44 })
      .map((random) => set('unknown key', `Bearer ppk_${random}`)),
    fc.string({ maxLength: 60 }).map((junk) => set('junk Authorization', `Basic ${junk}`)),
  );
}

// --- Path -----------------------------------------------------------------------------------------------------

export function pathDefects(op: Operation, context: FuzzContext): fc.Arbitrary<Defect> {
  return fc.constantFrom(...op.pathParams.map((parameter) => parameter.name)).chain((name) => {
    const foreign = context.foreign.get(name);
    return fc.oneof(
      notUuid.map((id) => defect(`${name} not a UUID`, (draft) => (draft.pathValues[name] = id))),
      fc.uuid({ version: 4 }).map((id) => defect(`${name} of no record`, (draft) => (draft.pathValues[name] = id))),
      ...(foreign
        ? [fc.constant(defect(`${name} of another team`, (draft) => (draft.pathValues[name] = foreign)))]
        : []),
    );
  });
}

// --- Query ----------------------------------------------------------------------------------------------------

const isList = (schema: Schema) => schema.type === 'array';

/** A valid query-string value for a documented parameter. */
export function validQueryValue(context: FuzzContext, parameter: Parameter): fc.Arbitrary<string> {
  const schema = resolveSchema(context.doc, parameter.schema);
  if (isList(schema)) {
    const item = resolveSchema(context.doc, schema.items);
    return item.enum ? fc.subarray(item.enum.map(String), { minLength: 1 }).map((values) => values.join(',')) : word();
  }
  if (schema.type === 'string' && !schema.enum && !schema.format) return word(Math.min(schema.maxLength ?? 20, 20));
  return validValue(context, schema, parameter.name).map(String);
}

/** Query-string values the parameter must refuse (after trimming, as the API trims them). */
function invalidQueryValue(context: FuzzContext, parameter: Parameter): fc.Arbitrary<string> | undefined {
  const schema = resolveSchema(context.doc, parameter.schema);
  const choices: fc.Arbitrary<string>[] = [];
  if (isList(schema)) {
    const item = resolveSchema(context.doc, schema.items);
    if (item.enum) {
      const values = item.enum.map(String);
      const bad = word().filter((text) => !values.includes(text));
      choices.push(fc.tuple(fc.constantFrom(...values), bad).map(([good, wrong]) => `${good},${wrong}`));
    }
  } else if (schema.enum) {
    const values = schema.enum.map(String);
    choices.push(
      fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim() !== '' && !values.includes(text.trim())),
    );
  } else if (schema.type === 'integer') {
    const outside: number[] = [];
    if (schema.minimum !== undefined) outside.push(schema.minimum - 1);
    if (schema.maximum !== undefined) outside.push(schema.maximum + 1);
    choices.push(
      fc.constantFrom('', 'abc', '1.5', '-1', '1e3', '0x10', '9999999999', '١', ...outside.map(String)),
      word().filter((text) => !/^\d+$/.test(text)),
    );
  } else if (schema.format === 'uuid') {
    choices.push(notUuid);
  } else if (schema.format === 'date-time') {
    choices.push(fc.constantFrom('tomorrow', '2027-02-31', '2027-13-01', '31/01/2027', '1738300000000', 'T'));
  } else if (schema.type === 'string') {
    if (schema.maxLength !== undefined) {
      const max = schema.maxLength;
      choices.push(fc.integer({ min: 1, max: 30 }).map((extra) => 'q'.repeat(max + extra)));
    }
    if (schema.pattern?.includes('\\u0000-\\u001f'))
      choices.push(fc.integer({ min: 1, max: 0x1f }).map((code) => `a${String.fromCharCode(code)}b`));
  }
  return choices.length > 0 ? fc.oneof(...choices) : undefined;
}

export function queryDefects(op: Operation, context: FuzzContext): fc.Arbitrary<Defect> {
  const declared = new Set(op.query.map((parameter) => parameter.name));
  const choices: fc.Arbitrary<Defect>[] = [
    fc
      .tuple(fc.stringMatching(/^[A-Za-z_][\w.[\]-]{0,20}$/), fc.string({ maxLength: 10 }))
      .filter(([name]) => !declared.has(name))
      .map(([name, value]) => defect(`unknown query parameter ${name}`, (draft) => draft.query.push([name, value]))),
    fc
      .constantFrom(...RESERVED_NAMES)
      .map((name) => defect(`reserved query parameter ${name}`, (draft) => draft.query.push([name, '1']))),
  ];
  for (const parameter of op.query) {
    const invalid = invalidQueryValue(context, parameter);
    if (invalid)
      choices.push(
        invalid.map((value) =>
          defect(`invalid ${parameter.name}`, (draft) => {
            draft.query = draft.query.filter(([name]) => name !== parameter.name);
            draft.query.push([parameter.name, value]);
          }),
        ),
      );
    // A parameter that takes one value, given twice, arrives as a list.
    if (!isList(resolveSchema(context.doc, parameter.schema)))
      choices.push(
        fc
          .tuple(validQueryValue(context, parameter), validQueryValue(context, parameter))
          .map(([first, second]) =>
            defect(`${parameter.name} given twice`, (draft) =>
              draft.query.push([parameter.name, first], [parameter.name, second]),
            ),
          ),
      );
  }
  return fc.oneof(...choices);
}

// --- Headers --------------------------------------------------------------------------------------------------

export function headerDefects(op: Operation): fc.Arbitrary<Defect>[] {
  const choices: fc.Arbitrary<Defect>[] = [];
  if (hasHeader(op, 'Idempotency-Key'))
    choices.push(
      fc
        .oneof(
          fc.integer({ min: 256, max: 300 }).map((length) => 'k'.repeat(length)),
          fc.tuple(word(), word()).map(([a, b]) => `${a} ${b}`),
          fc.tuple(word(), word()).map(([a, b]) => `${a}\t${b}`),
          word().map((a) => `${a}\u00e9`),
        )
        .map((key) => defect('invalid Idempotency-Key', (draft) => (draft.headers['Idempotency-Key'] = key))),
    );
  if (hasHeader(op, 'If-Match'))
    choices.push(
      fc
        .oneof(
          word(27).map((tag) => `"${tag}"`),
          word(27).map((tag) => `W/"${tag}"`),
          // `*` matches any version, alone or (read leniently) in a list.
          fc.string({ minLength: 1, maxLength: 30 }).filter((tag) => tag.trim() !== '' && !tag.includes('*')),
        )
        .map((tag) => defect('If-Match of no version', (draft) => (draft.headers['If-Match'] = tag))),
    );
  return choices;
}
