import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  collectionsByParameter,
  fillPath,
  operationsOf,
  resolveSchema,
  type OpenApiDocument,
  type Operation,
} from './openapi.js';
import { RawHttpClient, type RawResponse } from './raw-http.js';
import { tableChecksums, watchedTables } from './table-snapshots.js';
import {
  authorization,
  BOUNDARY,
  createOneOfEach,
  discoverNestedIds,
  jsonOf,
  sampleObject,
  UPLOAD,
  type RecordIds,
} from './team-records.js';

/**
 * Team isolation, swept over the served OpenAPI document: team A gets one record of every resource, then
 * team B calls every operation that names a record by id with A's ids and must get `404 {error}`, and every
 * list must show B none of A's records. A route added to the document is swept without a test written for it.
 */
describe('another team’s records, over every operation of the OpenAPI document', () => {
  let sut: TestApp;
  let client: RawHttpClient;
  let doc: OpenApiDocument;
  let operations: Operation[];
  let teamA: string;
  let teamB: string;
  let recordsOfA: RecordIds;
  let tables: string[];

  beforeAll(async () => {
    sut = await createTestApp();
    client = await RawHttpClient.listen(sut.app.getHttpServer());
    doc = jsonOf(await client.send({ method: 'GET', path: '/v1/openapi.json', headers: {} })) as OpenApiDocument;
    operations = operationsOf(doc);
    teamA = (await sut.createTeam('Team A')).apiKey;
    teamB = (await sut.createTeam('Team B')).apiKey;
    recordsOfA = await createOneOfEach(doc, operations, client, teamA);
    await discoverNestedIds(operations, client, teamA, recordsOfA);
    tables = await watchedTables(sut);
  });
  afterAll(async () => {
    client?.close();
    await sut?.close();
  });

  const byId = () => operations.filter((op) => op.secured && op.pathParams.length > 0);
  // Not the import template: a CSV header row for a resource, the same for every team, no records in it.
  const lists = () =>
    operations.filter(
      (op) => op.secured && op.method === 'GET' && op.pathParams.length === 0 && op.path !== '/v1/imports/template',
    );

  /** A body without the fields each read signs afresh (an attachment's download URL and its expiry). */
  function withoutFreshFields(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(withoutFreshFields);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'downloadUrl' && key !== 'downloadUrlExpiresAt')
        .map(([key, field]) => [key, withoutFreshFields(field)]),
    );
  }

  /** What GET-one answers A for each of A's records, to compare before and after B's attempts. */
  async function readAllAsA(): Promise<Record<string, unknown>> {
    const reads: Record<string, unknown> = {};
    for (const op of byId().filter((candidate) => candidate.method === 'GET')) {
      const path = fillPath(op.path, Object.fromEntries(recordsOfA));
      const response = await client.send({ method: 'GET', path, headers: authorization(teamA) });
      reads[path] = { status: response.status, body: withoutFreshFields(jsonOf(response)) };
    }
    return reads;
  }

  /** B's request to `op` with A's ids; a body, when the operation takes one, that is valid but for the record. */
  function asB(op: Operation): Promise<RawResponse> {
    const collections = collectionsByParameter(operations);
    // Links in the body are left out: linking to A's records would be refused (400) before the lookup.
    const path = fillPath(op.path, Object.fromEntries(recordsOfA));
    if (op.multipart) {
      const headers = { ...authorization(teamB), 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
      return client.send({ method: op.method, path, headers, body: UPLOAD });
    }
    const body = op.body ? JSON.stringify(sampleObject(doc, op.body, { optional: true, collections })) : undefined;
    return client.send({
      method: op.method,
      path,
      headers: { ...authorization(teamB), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body,
    });
  }

  it('created one record of every resource as team A', () => {
    const named = [...new Set(byId().flatMap((op) => op.pathParams.map((parameter) => parameter.name)))];
    expect(named.filter((name) => !recordsOfA.has(name))).toEqual([]);
    expect(recordsOfA.size).toBeGreaterThanOrEqual(5);
  });

  it('answers team B with 404 {error} on every operation that names one of A’s records, and A’s records stay as they were', async () => {
    const readBefore = await readAllAsA();
    const checksumsBefore = await tableChecksums(sut, tables);
    const answers: Record<string, { status: number; body: unknown }> = {};
    // Reads and updates first, deletes last: a delete that got through would hide what the others did.
    const ordered = [...byId()].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const op of ordered) {
      const response = await asB(op);
      answers[op.name] = { status: response.status, body: jsonOf(response) };
    }
    const expected = Object.fromEntries(
      ordered.map((op) => [op.name, { status: 404, body: { error: expect.any(String) } }]),
    );
    expect(answers).toEqual(expected);
    expect(ordered.length).toBeGreaterThanOrEqual(15);

    expect(await readAllAsA()).toEqual(readBefore);
    expect(await tableChecksums(sut, tables)).toEqual(checksumsBefore);
  });

  /** Every documented filter of the list that takes an id, set to A's record of that kind; `search` to A's text. */
  const filtersNamingA = (op: Operation): [string, string][] =>
    op.query.flatMap((parameter): [string, string][] => {
      const schema = resolveSchema(doc, parameter.schema);
      const id = recordsOfA.get(parameter.name);
      if (schema.format === 'uuid' && id) return [[parameter.name, id]];
      if (parameter.name === 'search') return [[parameter.name, 'Reliability']];
      return [];
    });

  it('shows team B none of A’s records in any list, with or without filters naming them', async () => {
    const seen: Record<string, { status: number; data: unknown; total: unknown }> = {};
    for (const op of lists()) {
      const filters = filtersNamingA(op);
      for (const query of [[], filters]) {
        const search = query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
        const response = await client.send({
          method: 'GET',
          path: op.path + (search ? `?${search}` : ''),
          headers: authorization(teamB),
        });
        const body = jsonOf(response) as { data?: unknown; pagination?: { total?: unknown } } | undefined;
        seen[`${op.name}?${search}`] = { status: response.status, data: body?.data, total: body?.pagination?.total };
      }
    }
    const expected = Object.fromEntries(
      Object.keys(seen).map((key) => [
        key,
        { status: 200, data: [], total: seen[key].total === undefined ? undefined : 0 },
      ]),
    );
    expect(seen).toEqual(expected);
    expect(lists().length).toBeGreaterThanOrEqual(5);

    // The same lists as A do show A's records: the sweep above could have failed.
    for (const op of lists()) {
      const response = await client.send({ method: 'GET', path: op.path, headers: authorization(teamA) });
      expect({ list: op.name, found: ((jsonOf(response) as { data: unknown[] }).data ?? []).length > 0 }).toEqual({
        list: op.name,
        found: true,
      });
    }
  });

  it('exports to team B none of A’s records from any list that answers CSV, with or without filters naming them', async () => {
    const exporting = lists().filter((op) => op.exportsCsv);
    expect(exporting.length).toBeGreaterThanOrEqual(5);
    const lines = async (path: string, key: string): Promise<string[]> => {
      const response = await client.send({
        method: 'GET',
        path,
        headers: { ...authorization(key), Accept: 'text/csv' },
      });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      return response.text.split('\r\n').filter((line) => line !== '');
    };
    for (const op of exporting) {
      for (const query of [[], filtersNamingA(op)]) {
        const search = query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
        const path = op.path + (search ? `?${search}` : '');
        // The header row only.
        expect({ path, rows: (await lines(path, teamB)).length }).toEqual({ path, rows: 1 });
      }
      // As A, the same export holds every record of A's list (at least the one made here, more where the import
      // probe added some): the sweep above could have failed.
      const listed = jsonOf(await client.send({ method: 'GET', path: op.path, headers: authorization(teamA) })) as {
        pagination: { total: number };
      };
      expect(listed.pagination.total).toBeGreaterThanOrEqual(1);
      expect({ path: op.path, rows: (await lines(op.path, teamA)).length }).toEqual({
        path: op.path,
        rows: 1 + listed.pagination.total,
      });
    }
  });
});
