import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { invalidRequest, type FuzzContext, type FuzzRequest } from './invalid-requests.js';
import {
  collectionsByParameter,
  fillPath,
  operationsOf,
  resolveSchema,
  type OpenApiDocument,
  type Operation,
} from './openapi.js';
import { RawHttpClient, type RawResponse } from './raw-http.js';
import { deliveriesSettled, rowsChanged, tableChecksums, tableRows, watchedTables } from './table-snapshots.js';
import { validObject } from './schema-values.js';
import { createOneOfEach, jsonOf } from './team-records.js';

/**
 * `FUZZ_RUNS` invalid requests (10,000 by default) spread over every operation of the served OpenAPI document,
 * sent in concurrent batches to one app on a real database. Each must be refused with a 4xx whose body is
 * exactly `{error}`, and no table may change. `FUZZ_SEED` replays a run: the same seed generates the same
 * requests (only the record ids, made afresh, differ).
 */
const REQUESTS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED);
const BATCH = 50;

interface Figures {
  sent: number;
  serverErrors: number;
  byStatus: Record<string, number>;
  byOperation: Record<string, number>;
}

/** Why a response breaks the contract for a refused request, or undefined when it is a proper refusal. */
function problemWith(response: RawResponse): string | undefined {
  if (response.status < 400 || response.status >= 500) return `status ${response.status}, expected a 4xx`;
  const body = jsonOf(response);
  const exact =
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    Object.keys(body).join() === 'error' &&
    typeof (body as { error: unknown }).error === 'string';
  return exact ? undefined : 'body is not exactly {"error": "<text>"}';
}

const describeRequest = (request: FuzzRequest, response?: RawResponse): string =>
  [
    `${request.method} ${request.path}  [${request.defects.join('; ')}]`,
    `  headers ${JSON.stringify(request.headers)}`,
    request.body === undefined
      ? ''
      : `  body ${JSON.stringify(request.body.slice(0, 300))}${request.body.length > 300 ? '…' : ''}`,
    response ? `  → ${response.status} ${response.text.slice(0, 300)}` : '',
  ]
    .filter(Boolean)
    .join('\n');

describe('invalid requests generated from the OpenAPI document', () => {
  let sut: TestApp;
  let client: RawHttpClient;
  let operations: Operation[];
  let context: FuzzContext;
  let tables: string[];

  beforeAll(async () => {
    // Retries an hour away, and every first attempt over before the snapshots: no delivery row moves meanwhile.
    sut = await createTestApp({ config: { WEBHOOK_RETRY_SCHEDULE: '1h' } });
    client = await RawHttpClient.listen(sut.app.getHttpServer());
    const doc = jsonOf(await client.send({ method: 'GET', path: '/v1/openapi.json', headers: {} })) as OpenApiDocument;
    operations = operationsOf(doc);
    const fuzzer = await sut.createTeam('Fuzzing team');
    const other = await sut.createTeam('Other team');
    context = {
      doc,
      collections: collectionsByParameter(operations),
      apiKey: fuzzer.apiKey,
      own: await createOneOfEach(doc, operations, client, fuzzer.apiKey),
      foreign: await createOneOfEach(doc, operations, client, other.apiKey),
    };
    await deliveriesSettled(sut);
    tables = await watchedTables(sut);
  });
  afterAll(async () => {
    client?.close();
    await sut?.close();
  });

  it(`refuses every one of ${REQUESTS} with a 4xx {error}, never a 5xx, and changes no table`, async () => {
    process.stdout.write(
      `\nfuzz: seed ${SEED}, ${REQUESTS} requests (replay: FUZZ_SEED=${SEED} npm run test:reliability)\n`,
    );
    const started = Date.now();
    const rowsBefore = await tableRows(sut, tables);
    const figures: Figures = { sent: 0, serverErrors: 0, byStatus: {}, byOperation: {} };

    const batches = fc.array(invalidRequest(operations, context), { minLength: BATCH, maxLength: BATCH });
    const details = await fc.check(
      fc.asyncProperty(batches, async (batch) => {
        const before = await tableChecksums(sut, tables);
        const responses = await Promise.all(batch.map((request) => client.send(request)));
        const after = await tableChecksums(sut, tables);
        const problems: string[] = [];
        batch.forEach((request, index) => {
          const response = responses[index];
          figures.sent++;
          figures.byStatus[response.status] = (figures.byStatus[response.status] ?? 0) + 1;
          figures.byOperation[request.operation] = (figures.byOperation[request.operation] ?? 0) + 1;
          if (response.status >= 500) figures.serverErrors++;
          const problem = problemWith(response);
          if (problem) problems.push(`${problem}:\n${describeRequest(request, response)}`);
        });
        const changed = tables.filter((table) => before[table] !== after[table]);
        if (changed.length > 0) problems.push(`tables changed by this batch: ${changed.join(', ')}`);
        if (problems.length > 0) throw new Error(problems.join('\n\n'));
      }),
      { seed: SEED, numRuns: Math.ceil(REQUESTS / BATCH), endOnFailure: true },
    );

    const seconds = (Date.now() - started) / 1000;
    const changedRows = rowsChanged(rowsBefore, await tableRows(sut, tables));
    process.stdout.write(
      `fuzz: ${figures.sent} requests in ${seconds.toFixed(1)} s, ${figures.serverErrors} × 5xx, ` +
        `${changedRows} rows changed; statuses ${JSON.stringify(figures.byStatus)}\n`,
    );
    const failure = details.failed
      ? details.errorInstance instanceof Error
        ? details.errorInstance.message
        : `fast-check stopped: ${JSON.stringify(details.errorInstance) ?? 'interrupted'}`
      : undefined;
    expect({ failure, seed: SEED }).toEqual({ failure: undefined, seed: SEED });
    expect({ serverErrors: figures.serverErrors, changedRows }).toEqual({ serverErrors: 0, changedRows: 0 });
    expect(figures.sent).toBeGreaterThanOrEqual(REQUESTS);
    // Every operation of the document was fuzzed, not only the ones the generator happens to favour.
    const fair = Math.floor(REQUESTS / operations.length / 4);
    const neglected = operations.filter((op) => (figures.byOperation[op.name] ?? 0) < fair).map((op) => op.name);
    expect(neglected).toEqual([]);
  });

  // The fuzzer sends null to a non-nullable field only now and then; this sweep sends it to every one, every
  // run (a null reaching a NOT NULL column as a 500 was once found by chance, on one seed in CI).
  it('refuses null in every field the document does not mark nullable, field by field', async () => {
    const rowsBefore = await tableRows(sut, tables);
    const refusals: string[] = [];
    const problems: string[] = [];
    for (const op of operations.filter((one) => one.body !== undefined)) {
      const body = op.body!; // filtered above
      const pathValues = Object.fromEntries(
        op.pathParams.map((parameter) => [parameter.name, context.own.get(parameter.name) ?? '']),
      );
      const [valid] = fc.sample(validObject(context, body), { seed: 1, numRuns: 1 });
      for (const [field, property] of Object.entries(body.properties ?? {})) {
        if (resolveSchema(context.doc, property).nullable) continue;
        const request: FuzzRequest = {
          operation: op.name,
          defects: [`null ${field}`],
          method: op.method,
          path: fillPath(op.path, pathValues),
          headers: { Authorization: `Bearer ${context.apiKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...valid, [field]: null }),
        };
        const response = await client.send(request);
        const problem = problemWith(response);
        if (problem) problems.push(`${problem}:\n${describeRequest(request, response)}`);
        else refusals.push(`${op.name} ${field}`);
      }
    }
    expect(problems).toEqual([]);
    // Every write with a body has fields that may not be null (a sweep of nothing proves nothing).
    expect(refusals.length).toBeGreaterThan(operations.filter((one) => one.body !== undefined).length);
    expect(rowsChanged(rowsBefore, await tableRows(sut, tables))).toBe(0);
  });
});
