import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { csvCellOf, csvValueOf } from '@app/common';
import { collectionOf } from '../apps/api/src/csv/index.js';
import { ResourceCsvs } from '../apps/api/src/exports/index.js';
import { RESOURCES } from '../apps/api/src/resources.js';
import { csvRecords } from './support/csv.js';
import { bodySchemaOf, createRecord, RESOURCES_UNDER_TEST, type RecordBody } from './support/resources.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

// CONTRACT "Imports and exports": every list answers `Accept: text/csv` with every matching record (all pages,
// the same filters and order), streamed, in the import's column names, counted as one read. Asserted once per
// resource of the registration list, from its documented example record: nothing here names a resource.

/** Small batches, so that a few records make several of them (the keyset between batches is under test). */
const BATCH = 4;
const RECORDS = 11;
const TRICKY = 'Tricky, "quoted"\nsecond line';
/** Line breaks with nothing else a CSV quotes for (no comma, no quote): records 6 and 7 carry them. */
const LINE_BREAK_ONLY: Record<number, string> = { 6: 'Line feed\nalone', 7: 'Carriage return\ralone' };
/** A list item holding the list's separator, and a backslash before it (both escaped in the cell). */
const TRICKY_ITEM = 'Heating; gas \\; vents';

describe.each(RESOURCES_UNDER_TEST)('$path: CSV export', (resource) => {
  const { api, path } = resource;
  const name = path.replace('/v1/', '');
  const entry = RESOURCES.find((candidate) => collectionOf(candidate) === name);
  const example = entry?.example?.record.body as Record<string, unknown> | undefined;

  let sut: TestApp;
  let team: Team;
  let otherTeam: Team;
  /** What each record was created with, by id. */
  const sent = new Map<string, Record<string, unknown>>();
  let trickyField: string | undefined;
  let trickyListField: string | undefined;

  const csvOf = () => {
    const csv = sut.app.get(ResourceCsvs).of(name);
    if (!csv) throw new Error(`no CSV for ${name}`);
    return csv;
  };
  const exportAs = (as: Team, query: Record<string, string> = {}) =>
    sut
      .http()
      .get(path)
      .query(query)
      .set(...bearer(as))
      .set('Accept', 'text/csv');

  /** The example body with its links to new records of the team (two for a list of links), and `n` in it. */
  const bodyOf = async (as: Team, n: number): Promise<Record<string, unknown>> => {
    const body: Record<string, unknown> = { ...(example ?? {}) };
    for (const [field, value] of Object.entries(body)) {
      const linked = RESOURCES_UNDER_TEST.find((c) => c.idParam === field || `${c.idParam}s` === field);
      if (!linked) continue;
      if (Array.isArray(value)) {
        body[field] = [(await createRecord(sut, as, linked)).id, (await createRecord(sut, as, linked)).id];
      } else body[field] = (await createRecord(sut, as, linked)).id;
    }
    body.externalRef = `EXP-${n}`;
    if (trickyField) body[trickyField] = `${LINE_BREAK_ONLY[n] ?? TRICKY} ${n}`;
    if (trickyListField) body[trickyListField] = [...(body[trickyListField] as string[]), `${TRICKY_ITEM} ${n}`];
    return body;
  };

  beforeAll(async () => {
    sut = await createTestApp({ config: { EXPORT_BATCH_SIZE: BATCH } });
    team = await sut.createTeam('Export team');
    otherTeam = await sut.createTeam('Other team');
    // A free-text field of the body (no format, no enum, room for the tricky text) carries commas, quotes, a newline.
    const properties = bodySchemaOf(sut, resource, 'create').properties ?? {};
    trickyField = Object.entries(properties).find(
      ([field, schema]) =>
        field !== 'externalRef' &&
        typeof example?.[field] === 'string' &&
        schema.type === 'string' &&
        !schema.format &&
        !schema.enum &&
        (schema.maxLength ?? 1000) >= 60,
    )?.[0];
    // And a list of free-text items (no format, no enum): one item holding `;` and a backslash.
    trickyListField = Object.entries(properties).find(([field, schema]) => {
      const items = schema.items;
      return (
        Array.isArray(example?.[field]) &&
        schema.type === 'array' &&
        items?.type === 'string' &&
        !items.format &&
        !items.enum &&
        (items.maxLength ?? 1000) >= 30
      );
    })?.[0];
    for (let n = 1; n <= RECORDS; n++) {
      const body = await bodyOf(team, n);
      const created = await api.create(sut, team, body);
      sent.set(created.id, body);
    }
    for (let n = 1; n <= 2; n++) await api.create(sut, otherTeam, await bodyOf(otherTeam, 100 + n));
  });
  afterAll(() => sut.close());

  /** Every record of the JSON list, page by page (pages of 3). */
  const listed = async (as: Team, query: Record<string, string>): Promise<RecordBody[]> => {
    const records: RecordBody[] = [];
    for (let page = 1; ; page++) {
      const response = await api.list(sut, as, { ...query, page, pageSize: 3 });
      expect(response.status).toBe(200);
      const data = response.body.data as RecordBody[];
      records.push(...data);
      if (data.length < 3) return records;
    }
  };

  it('has an example record and a free-text field to export', () => {
    expect(example).toBeDefined();
    expect(trickyField).toBeDefined();
  });

  it.each([
    ['no filter', {}],
    ['oldest first', { sort: 'createdAt' }],
    ['by updatedAt', { sort: '-updatedAt' }],
    ['a search', { search: '1' }],
    ['an externalRef', { externalRef: 'EXP-3' }],
  ])('answers every record of the list with %s, in its order, each cell by its kind', async (_, query) => {
    const response = await exportAs(team, query).expect(200);
    const { header, records } = csvRecords(response.text);
    const columns = csvOf().exportColumns;
    expect(header).toEqual(columns.map((column) => column.name));
    const expected = await listed(team, query);
    expect(records.map((record) => record.id)).toEqual(expected.map((record) => record.id));
    for (const [i, record] of expected.entries()) {
      const cells = Object.fromEntries(
        columns.map(({ name: column, kind, valueOf }) => [column, csvCellOf(valueOf(record), kind)]),
      );
      expect(records[i]).toEqual(cells);
    }
  });

  it('keeps the order across batches when records share a millisecond or a whole timestamp (the keyset is exact)', async () => {
    // Microseconds apart within one millisecond, and ties broken by id: a key cut to milliseconds would skip rows.
    await sut.sql(
      `UPDATE ${resource.table} SET created_at = '2026-01-01T00:00:00.000100Z'::timestamptz
         + (get_byte(uuid_send(id), 15) % 3) * interval '1 microsecond' WHERE team_id = $1`,
      [team.teamId],
    );
    for (const sort of ['-createdAt', 'createdAt']) {
      const { records } = csvRecords((await exportAs(team, { sort }).expect(200)).text);
      const expected = await listed(team, { sort });
      expect(expected).toHaveLength(RECORDS);
      expect(records.map((record) => record.id)).toEqual(expected.map((record) => record.id));
    }
  });

  it('sends the header row of the columns: every response field, then the body fields the response lacks', async () => {
    const response = await exportAs(team).expect(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="${name}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const [record] = (await api.list(sut, team)).body.data as RecordBody[];
    const header = response.text.slice(0, response.text.indexOf('\r\n')).split(',');
    expect(new Set(header.slice(0, Object.keys(record).length))).toEqual(new Set(Object.keys(record)));
    const body = Object.keys(sent.get(record.id) ?? {});
    expect(header).toEqual(expect.arrayContaining(body));
  });

  it('quotes cells holding commas, quotes and newlines (RFC 4180)', async () => {
    const response = await exportAs(team, { externalRef: 'EXP-5' }).expect(200);
    expect(response.text).toContain(`"Tricky, ""quoted""\nsecond line 5"`);
    const [record] = csvRecords(response.text).records;
    expect(record[trickyField as string]).toBe(`${TRICKY} 5`);
  });

  it('quotes cells whose only special characters are a LF or a CR (RFC 4180)', async () => {
    for (const n of [6, 7]) {
      const response = await exportAs(team, { externalRef: `EXP-${n}` }).expect(200);
      expect(response.text).toContain(`"${LINE_BREAK_ONLY[n]} ${n}"`);
      const [record] = csvRecords(response.text).records;
      expect(record[trickyField as string]).toBe(`${LINE_BREAK_ONLY[n]} ${n}`);
    }
  });

  it('joins lists with ";" (an item\'s own escaped) and writes nested values as JSON', async () => {
    // `Heating; gas \; vents 5` as `Heating\; gas \\\; vents 5` (its `;` and its backslash each escaped).
    if (trickyListField) {
      const [first] = csvRecords((await exportAs(team)).text).records;
      expect(first[trickyListField]).toMatch(/(^|;)Heating\\; gas \\\\\\; vents \d+$/);
    }
    const { records } = csvRecords((await exportAs(team)).text);
    const expected = await listed(team, {});
    for (const { name: column, kind, valueOf } of csvOf().exportColumns) {
      for (const [i, record] of expected.entries()) {
        const value = valueOf(record);
        // An item's own `;` and `\` are escaped with a backslash.
        const escaped = (items: string[]) => items.map((item) => item.replace(/[;\\]/g, '\\$&'));
        if (kind === 'list') expect(records[i][column]).toBe(escaped(value as string[]).join(';'));
        if (kind === 'json' && value !== null) expect(JSON.parse(records[i][column])).toEqual(value);
      }
    }
  });

  it('reads back, cell by cell, as the body each record was created with (an export imports back)', async () => {
    const { records } = csvRecords((await exportAs(team)).text);
    const { columns } = csvOf().importColumns;
    expect(records).toHaveLength(RECORDS);
    for (const record of records) {
      const body = sent.get(record.id) as Record<string, unknown>;
      const read = Object.fromEntries(
        Object.keys(body).map((field) => [field, csvValueOf(record[field], columns.get(field) ?? 'text')]),
      );
      expect(read).toEqual(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v ?? undefined])));
    }
  });

  /** Posts a CSV import of this resource and waits for its final answer. */
  const importCsv = async (csv: string): Promise<Record<string, unknown>> => {
    const posted = await sut
      .http()
      .post('/v1/imports')
      .query({ resource: name })
      .set(...bearer(team))
      .set('Content-Type', 'text/csv')
      .send(csv);
    expect(posted.status).toBe(202);
    const { id } = (posted.body as { data: { id: string } }).data;
    let current: Record<string, unknown> = {};
    await until(async () => {
      current = (
        (
          await sut
            .http()
            .get(`/v1/imports/${id}`)
            .set(...bearer(team))
        ).body as { data: typeof current }
      ).data;
      return ['succeeded', 'failed', 'cancelled'].includes(current.status as string);
    }, `the ${name} import to finish`);
    return current;
  };

  it('imports back through POST /v1/imports: unchanged as updates, and as new records under new external ids', async () => {
    const exported = (await exportAs(team, { sort: 'createdAt' }).expect(200)).text;
    const again = await importCsv(exported);
    expect(again).toMatchObject({ status: 'succeeded', createdCount: 0, updatedCount: RECORDS, failedCount: 0 });
    const copies = await importCsv(exported.replace(/\bEXP-(\d+)\b/g, 'IMP-$1'));
    expect(copies).toMatchObject({ status: 'succeeded', createdCount: RECORDS, updatedCount: 0, failedCount: 0 });
    const [copy] = (await api.list(sut, team, { externalRef: 'IMP-5' })).body.data as RecordBody[];
    const [original] = (await api.list(sut, team, { externalRef: 'EXP-5' })).body.data as RecordBody[];
    expect(copy.id).not.toBe(original.id);
    // Every field the record was created with reads the same on the copy.
    const fields = Object.keys(sent.get(original.id) ?? {}).filter((field) => field !== 'externalRef');
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) expect({ field, value: copy[field] }).toEqual({ field, value: original[field] });
  });

  it("shows a team none of another team's records", async () => {
    const { records } = csvRecords((await exportAs(otherTeam).expect(200)).text);
    expect(records.map((record) => record.externalRef).sort()).toEqual(['EXP-101', 'EXP-102']);
    expect(records.filter((record) => sent.has(record.id))).toEqual([]);
  });

  it('counts as one read, however many batches it takes', async () => {
    const before = await api.list(sut, team);
    const exported = await exportAs(team).expect(200);
    expect(csvRecords(exported.text).records.length).toBeGreaterThan(2 * BATCH);
    expect(Number(exported.headers['x-ratelimit-remaining'])).toBe(Number(before.headers['x-ratelimit-remaining']) - 1);
  });

  it('refuses a bad filter with 400 {error} in JSON; page and pageSize, checked as the list checks them, change nothing', async () => {
    const bad = await exportAs(team, { sort: 'sideways' }).expect(400);
    expect(bad.headers['content-type']).toMatch(/^application\/json/);
    expect(bad.body).toEqual({ error: expect.stringContaining('sort') });
    // Every page, whatever page the list was asked for.
    const all = csvRecords((await exportAs(team).expect(200)).text).records;
    expect(all.length).toBeGreaterThan(2 * BATCH);
    const queries: Array<Record<string, string>> = [{ page: '2', pageSize: '10' }, { page: '999' }, { pageSize: '1' }];
    for (const query of queries) {
      const paged = await exportAs(team, query).expect(200);
      expect({ query, records: csvRecords(paged.text).records }).toEqual({ query, records: all });
    }
    const list = await sut
      .http()
      .get(`${path}?pageSize=0`)
      .set(...bearer(team))
      .expect(400);
    expect((await exportAs(team, { pageSize: '0' }).expect(400)).body).toEqual(list.body);
  });

  it('keeps JSON for a client that does not ask for CSV first', async () => {
    const response = await sut
      .http()
      .get(path)
      .set(...bearer(team))
      .set('Accept', 'application/json, text/csv;q=0.5')
      .expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });
});
