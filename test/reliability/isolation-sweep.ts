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
import { deliveriesSettled, tableChecksums, teamChecksums, watchedTables } from './table-snapshots.js';
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

/** A key and the team its records carry (a test key's: its sandbox). */
export interface KeyOfTeam {
  apiKey: string;
  teamId: string;
}

/** Two keys that must see nothing of each other: the owner's records are made first, the other probes them. */
export interface IsolatedKeys {
  /** Makes one record of every resource. */
  owner: KeyOfTeam;
  /** Probes every operation with the owner's ids. */
  other: KeyOfTeam;
}

/**
 * Operations that take no key, so no key's records can show through them (each one named, so a new keyless route
 * fails the coverage check until someone says why it is safe here).
 */
const KEYLESS: Record<string, string> = {
  'GET /v1': 'the API root: its version and where the document is',
  'GET /health': 'liveness: the process answers, nothing of a team',
  'GET /health/ready': 'readiness: the database answers, nothing of a team',
  'GET /v1/attachment-downloads/{teamId}/{attachmentId}':
    'a signed download URL: its signature, not a key, names the team and the record',
};

/** Keyed reads answered alike for every team, with no record in them. */
const SAME_FOR_EVERY_TEAM: Record<string, string> = {
  'GET /v1/imports/template': 'a CSV header row for a resource, the same for every team',
};

/** How the sweep covers an operation; undefined: not covered, which the coverage check reports. */
export type Coverage = 'by id' | 'list' | 'create' | 'team action' | 'keyless' | 'same for every team';

export function coverageOf(op: Operation, operations: Operation[]): Coverage | undefined {
  if (!op.secured) return KEYLESS[op.name] === undefined ? undefined : 'keyless';
  if (SAME_FOR_EVERY_TEAM[op.name] !== undefined) return 'same for every team';
  if (op.pathParams.length > 0) return 'by id';
  if (op.method === 'GET') return 'list';
  const collections = new Set(collectionsByParameter(operations).values());
  if (op.method === 'POST' && collections.has(op.path)) return 'create';
  // A write on the caller's team as a whole (`POST /v1/sandbox/reset`): run by the other key, it must leave the
  // owner's rows as they were.
  if (op.method === 'POST') return 'team action';
  return undefined;
}

/**
 * Isolation, swept over the served OpenAPI document: the owner's key gets one record of every resource (with its
 * notes, attachments, history, events, webhook endpoint and delivery, import and its errors), then the other key
 * calls every operation that names a record by id with the owner's ids and must get `404 {error}`, every list,
 * the events feed and every export must show it none of them, and its own creates and team-wide actions must
 * leave the owner's rows as they were. A route added to the document is swept without a test written for it, and
 * one the sweep cannot classify fails it. Used for two teams (cross-team) and for a team and its sandbox
 * (cross-mode, both ways).
 */
export function sweepIsolation(title: string, keysOf: (sut: TestApp) => Promise<IsolatedKeys>): void {
  describe(title, () => {
    let sut: TestApp;
    let client: RawHttpClient;
    let doc: OpenApiDocument;
    let operations: Operation[];
    let keys: IsolatedKeys;
    let ownerKey: string;
    let otherKey: string;
    let recordsOfOwner: RecordIds;
    let tables: string[];

    const settled = () => deliveriesSettled(sut);

    beforeAll(async () => {
      sut = await createTestApp({ config: { WEBHOOK_RETRY_SCHEDULE: '1h' } });
      client = await RawHttpClient.listen(sut.app.getHttpServer());
      doc = jsonOf(await client.send({ method: 'GET', path: '/v1/openapi.json', headers: {} })) as OpenApiDocument;
      operations = operationsOf(doc);
      keys = await keysOf(sut);
      ownerKey = keys.owner.apiKey;
      otherKey = keys.other.apiKey;
      recordsOfOwner = await createOneOfEach(doc, operations, client, ownerKey);
      await discoverNestedIds(operations, client, ownerKey, recordsOfOwner);
      await settled();
      tables = await watchedTables(sut);
    });
    afterAll(async () => {
      client?.close();
      await sut?.close();
    });

    const ofCoverage = (coverage: Coverage) => operations.filter((op) => coverageOf(op, operations) === coverage);
    const byId = () => ofCoverage('by id');
    const lists = () => ofCoverage('list');

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

    /** What GET-one answers the owner for each of its records, to compare before and after the other's attempts. */
    async function readAllAsOwner(): Promise<Record<string, unknown>> {
      const reads: Record<string, unknown> = {};
      for (const op of byId().filter((candidate) => candidate.method === 'GET')) {
        const path = fillPath(op.path, Object.fromEntries(recordsOfOwner));
        const response = await client.send({ method: 'GET', path, headers: authorization(ownerKey) });
        reads[path] = { status: response.status, body: withoutFreshFields(jsonOf(response)) };
      }
      return reads;
    }

    /** The other key's request to `op` with the owner's ids; a body, when it takes one, valid but for the record. */
    function asOther(op: Operation): Promise<RawResponse> {
      const collections = collectionsByParameter(operations);
      // Links in the body are left out: linking to the owner's records would be refused (400) before the lookup.
      const path = fillPath(op.path, Object.fromEntries(recordsOfOwner));
      if (op.multipart) {
        const headers = { ...authorization(otherKey), 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
        return client.send({ method: op.method, path, headers, body: UPLOAD });
      }
      const body = op.body ? JSON.stringify(sampleObject(doc, op.body, { optional: true, collections })) : undefined;
      return client.send({
        method: op.method,
        path,
        headers: { ...authorization(otherKey), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body,
      });
    }

    it('covers every operation of the document', () => {
      const uncovered = operations.filter((op) => coverageOf(op, operations) === undefined).map((op) => op.name);
      expect(uncovered).toEqual([]);
      expect(Object.keys(KEYLESS).filter((name) => !operations.some((op) => op.name === name))).toEqual([]);
      expect(ofCoverage('create').length).toBeGreaterThanOrEqual(5);
    });

    it('created one record of every resource with the owner’s key', () => {
      const named = [...new Set(byId().flatMap((op) => op.pathParams.map((parameter) => parameter.name)))];
      expect(named.filter((name) => !recordsOfOwner.has(name))).toEqual([]);
      expect(recordsOfOwner.size).toBeGreaterThanOrEqual(5);
    });

    it('answers the other key with 404 {error} on every operation that names one of the owner’s records, and the owner’s records stay as they were', async () => {
      const readBefore = await readAllAsOwner();
      const checksumsBefore = await tableChecksums(sut, tables);
      const answers: Record<string, { status: number; body: unknown }> = {};
      // Reads and updates first, deletes last: a delete that got through would hide what the others did.
      const ordered = [...byId()].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
      for (const op of ordered) {
        const response = await asOther(op);
        answers[op.name] = { status: response.status, body: jsonOf(response) };
      }
      const expected = Object.fromEntries(
        ordered.map((op) => [op.name, { status: 404, body: { error: expect.any(String) } }]),
      );
      expect(answers).toEqual(expected);
      expect(ordered.length).toBeGreaterThanOrEqual(15);

      expect(await readAllAsOwner()).toEqual(readBefore);
      expect(await tableChecksums(sut, tables)).toEqual(checksumsBefore);
    });

    /** Every documented filter of the list that takes an id, set to the owner's record of that kind; `search` to its text. */
    const filtersNamingOwner = (op: Operation): [string, string][] =>
      op.query.flatMap((parameter): [string, string][] => {
        const schema = resolveSchema(doc, parameter.schema);
        const id = recordsOfOwner.get(parameter.name);
        if (schema.format === 'uuid' && id) return [[parameter.name, id]];
        if (parameter.name === 'search') return [[parameter.name, 'Reliability']];
        return [];
      });

    it('shows the other key none of the owner’s records in any list or the events feed, with or without filters naming them', async () => {
      const seen: Record<string, { status: number; data: unknown; total: unknown }> = {};
      for (const op of lists()) {
        const filters = filtersNamingOwner(op);
        for (const query of [[], filters]) {
          const search = query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
          const response = await client.send({
            method: 'GET',
            path: op.path + (search ? `?${search}` : ''),
            headers: authorization(otherKey),
          });
          const body = jsonOf(response) as { data?: unknown; pagination?: { total?: unknown } } | undefined;
          seen[`${op.name}?${search}`] = {
            status: response.status,
            data: body?.data,
            total: body?.pagination?.total,
          };
        }
      }
      const expected = Object.fromEntries(
        Object.keys(seen).map((key) => [
          key,
          { status: 200, data: [], total: seen[key].total === undefined ? undefined : 0 },
        ]),
      );
      expect(seen).toEqual(expected);
      expect(lists().map((op) => op.path)).toEqual(expect.arrayContaining(['/v1/events', '/v1/imports']));

      // The same lists as the owner do show its records: the sweep above could have failed.
      for (const op of lists()) {
        const response = await client.send({ method: 'GET', path: op.path, headers: authorization(ownerKey) });
        expect({ list: op.name, found: ((jsonOf(response) as { data: unknown[] }).data ?? []).length > 0 }).toEqual({
          list: op.name,
          found: true,
        });
      }
    });

    it('exports to the other key none of the owner’s records from any list that answers CSV, with or without filters naming them', async () => {
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
        for (const query of [[], filtersNamingOwner(op)]) {
          const search = query.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
          const path = op.path + (search ? `?${search}` : '');
          // The header row only.
          expect({ path, rows: (await lines(path, otherKey)).length }).toEqual({ path, rows: 1 });
        }
        // As the owner, the same export holds every record of its list (at least the one made here, more where the
        // import probe added some): the sweep above could have failed.
        const listed = jsonOf(
          await client.send({ method: 'GET', path: op.path, headers: authorization(ownerKey) }),
        ) as {
          pagination: { total: number };
        };
        expect(listed.pagination.total).toBeGreaterThanOrEqual(1);
        expect({ path: op.path, rows: (await lines(op.path, ownerKey)).length }).toEqual({
          path: op.path,
          rows: 1 + listed.pagination.total,
        });
      }
    });

    // Last: the other key's own records would show in its lists above.
    it('leaves the owner’s rows as they were when the other key creates one of everything and runs every team-wide action', async () => {
      const readBefore = await readAllAsOwner();
      const ownerRowsBefore = await teamChecksums(sut, tables, keys.owner.teamId);
      const made = await createOneOfEach(doc, operations, client, otherKey);
      await discoverNestedIds(operations, client, otherKey, made);
      const actions: Record<string, number> = {};
      for (const op of ofCoverage('team action')) {
        const body = op.body
          ? JSON.stringify(sampleObject(doc, op.body, { optional: true, collections: new Map() }))
          : undefined;
        const response = await client.send({
          method: op.method,
          path: op.path,
          headers: {
            ...authorization(otherKey),
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body,
        });
        actions[op.name] = response.status;
      }
      expect(Object.keys(actions).length).toBeGreaterThanOrEqual(1);
      expect(Object.values(actions).every((status) => status < 500)).toBe(true);

      // The other key's records are its team's, none of them the owner's.
      const otherRows = await teamChecksums(sut, tables, keys.other.teamId);
      expect(Object.values(otherRows).some((checksum) => checksum !== '')).toBe(true);
      expect(await teamChecksums(sut, tables, keys.owner.teamId)).toEqual(ownerRowsBefore);
      expect(await readAllAsOwner()).toEqual(readBefore);
    });
  });
}
