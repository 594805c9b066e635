import { expect } from '@jest/globals';
import {
  collectionsByParameter,
  fillPath,
  linkedParameter,
  resolveSchema,
  type OpenApiDocument,
  type Operation,
  type Schema,
} from './openapi.js';
import type { RawHttpClient, RawResponse } from './raw-http.js';

/** A record id per path parameter name (`unitId` → one of the team's units). */
export type RecordIds = Map<string, string>;

export const authorization = (apiKey: string): Record<string, string> => ({ Authorization: `Bearer ${apiKey}` });

/** JSON of a response, or undefined when it has none or it is not JSON. */
export function jsonOf(response: RawResponse): unknown {
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    return undefined;
  }
}

interface SampleOptions {
  /** Fill fields that link to another record (`unitId`, `unitIds`) from these ids; leave them out when absent. */
  links?: RecordIds;
  /** Include optional fields (not only required ones). */
  optional: boolean;
  collections: Map<string, string>;
}

/** A valid value for `schema`, the same every time; undefined when none can be made (a link with no record). */
function sampleValue(doc: OpenApiDocument, raw: Schema | undefined, field: string, options: SampleOptions): unknown {
  const schema = resolveSchema(doc, raw);
  if (schema.enum) return schema.enum.includes(schema.default) ? schema.default : schema.enum[0];
  const linked = linkedParameter(field, options.collections);
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'uuid') return linked ? options.links?.get(linked) : undefined;
      if (schema.format === 'email') return 'reliability@example.com';
      if (schema.format === 'date-time') return '2027-01-31';
      if (schema.format === 'uri') return 'https://hooks.example.com/reliability';
      const text = `Reliability ${field}`;
      return text.slice(0, schema.maxLength ?? text.length);
    }
    case 'number':
    case 'integer':
      return typeof schema.example === 'number' ? schema.example : (schema.minimum ?? 0) + 1;
    case 'boolean':
      return true;
    case 'array': {
      const item = resolveSchema(doc, schema.items);
      if (item.format === 'uuid') {
        const id = linked ? options.links?.get(linked) : undefined;
        return id ? [id] : [];
      }
      // A list that must not be empty gets its first allowed value (e.g. an event type).
      return schema.minItems && item.enum ? [item.enum[0]] : [];
    }
    case 'object':
      return sampleObject(doc, schema, options);
    default:
      return undefined;
  }
}

/** A valid body for an object schema: its required fields, and its optional ones when asked. */
export function sampleObject(doc: OpenApiDocument, raw: Schema, options: SampleOptions): Record<string, unknown> {
  const schema = resolveSchema(doc, raw);
  const required = new Set(schema.required ?? []);
  const body: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    if (!required.has(field) && !options.optional) continue;
    const value = sampleValue(doc, property, field, options);
    if (value !== undefined) body[field] = value;
  }
  return body;
}

/** A file upload's body: one `file` part holding the smallest PDF the type check accepts (ASCII, so a string). */
export const BOUNDARY = 'probe-boundary';
export const UPLOAD = [
  `--${BOUNDARY}`,
  'Content-Disposition: form-data; name="file"; filename="probe.pdf"',
  'Content-Type: application/pdf',
  '',
  '%PDF-1.7\n%%EOF\n',
  `--${BOUNDARY}--`,
  '',
].join('\r\n');

/** Waits until an import has run (its records and events are written in the background): the records stay still. */
async function importFinished(client: RawHttpClient, apiKey: string, path: string): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const response = await client.send({ method: 'GET', path, headers: authorization(apiKey) });
    const status = (jsonOf(response) as { data?: { status?: string } } | undefined)?.data?.status;
    if (status === 'succeeded' || status === 'failed' || status === 'cancelled') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} did not finish`);
}

/**
 * Creates one record of every collection the document lets a client create, through its documented POST, as
 * the team of `apiKey`. Collections that link to others (a work order needs a unit) wait until those exist.
 * Returns the new ids by path parameter name.
 */
export async function createOneOfEach(
  doc: OpenApiDocument,
  operations: Operation[],
  client: RawHttpClient,
  apiKey: string,
): Promise<RecordIds> {
  const collections = collectionsByParameter(operations);
  const ids: RecordIds = new Map();
  let pending = [...collections.entries()];
  while (pending.length > 0) {
    const waiting: typeof pending = [];
    for (const [parameter, collection] of pending) {
      const create = operations.find((op) => op.method === 'POST' && op.path === collection);
      const schema = create?.body ?? { type: 'object' };
      const body = sampleObject(doc, schema, { links: ids, optional: true, collections });
      const missing = (schema.required ?? []).filter((field) => body[field] === undefined);
      // A nested collection (`/v1/work-orders/{workOrderId}/notes`) waits for the records its path names.
      const unnamed = [...collection.matchAll(/\{(\w+)\}/g)].filter(([, name]) => !ids.has(name));
      if (missing.length > 0 || unnamed.length > 0) {
        waiting.push([parameter, collection]);
        continue;
      }
      // An import takes its documented CSV example and query (`resource`), and answers 202: it runs in the background.
      const csv = create?.csvExample;
      const query = new URLSearchParams();
      for (const parameter of create?.query ?? []) {
        const schema = resolveSchema(doc, parameter.schema);
        const value = parameter.example ?? schema.example ?? schema.enum?.[0];
        if (parameter.required && value !== undefined)
          query.set(parameter.name, typeof value === 'string' ? value : JSON.stringify(value));
      }
      const response = await client.send({
        method: 'POST',
        path: fillPath(collection, Object.fromEntries(ids)) + (csv && query.size > 0 ? `?${query.toString()}` : ''),
        ...(csv
          ? { headers: { ...authorization(apiKey), 'Content-Type': 'text/csv' }, body: csv }
          : create?.multipart
            ? {
                headers: { ...authorization(apiKey), 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
                body: UPLOAD,
              }
            : {
                headers: { ...authorization(apiKey), 'Content-Type': 'application/json' },
                body: JSON.stringify(body),
              }),
      });
      expect({ collection, status: response.status }).toEqual({ collection, status: csv ? 202 : 201 });
      ids.set(parameter, (jsonOf(response) as { data: { id: string } }).data.id);
      if (csv) await importFinished(client, apiKey, `${collection}/${ids.get(parameter)}`);
    }
    if (waiting.length === pending.length) {
      throw new Error(`cannot create records of ${waiting.map(([, path]) => path).join(', ')}: unmet links`);
    }
    pending = waiting;
  }
  return ids;
}

/**
 * Ids of records no POST creates (a webhook delivery): every action without a body (`POST …/{endpointId}/test`) is
 * run once as the team, then each missing path parameter `{xId}` takes the first item of the GET list at its prefix
 * (`…/deliveries/{deliveryId}` ← `GET …/deliveries`). Generated from the document like everything else here.
 */
export async function discoverNestedIds(
  operations: Operation[],
  client: RawHttpClient,
  apiKey: string,
  ids: RecordIds,
): Promise<void> {
  const known = () => Object.fromEntries(ids);
  const ready = (op: Operation) => op.pathParams.every((parameter) => ids.has(parameter.name));
  for (const op of operations) {
    if (op.method !== 'POST' || op.body || op.pathParams.length === 0 || !ready(op)) continue;
    await client.send({ method: 'POST', path: fillPath(op.path, known()), headers: authorization(apiKey) });
  }
  // The actions may queue work that shows in lists a moment later (a delivery row is written at once).
  for (const op of operations) {
    const missing = op.pathParams.filter((parameter) => !ids.has(parameter.name));
    if (missing.length !== 1) continue;
    const name = missing[0].name;
    const listPath = op.path.slice(0, op.path.indexOf(`/{${name}}`));
    const list = operations.find((candidate) => candidate.method === 'GET' && candidate.path === listPath);
    if (!list || !ready(list)) continue;
    const response = await client.send({
      method: 'GET',
      path: fillPath(listPath, known()),
      headers: authorization(apiKey),
    });
    const first = (jsonOf(response) as { data?: Array<{ id?: string }> }).data?.[0]?.id;
    if (first) ids.set(name, first);
  }
}
