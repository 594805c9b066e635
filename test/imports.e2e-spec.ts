import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectError, ISO_WITH_MS, UUID } from './support/assertions.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';
import { IMPORT_BATCH_ROWS } from '../apps/api/src/imports/index.js';
import { until } from './support/until.js';

// CONTRACT "Imports and exports": the POST that queues an import (CSV or NDJSON), the background job that runs it
// (records, events and history with actor import), row errors, dry runs, cancel, limits, idempotency and another
// team seeing nothing. Resuming after a crash and two runners sharing an import: test/medium/import-runner.

interface Import {
  id: string;
  resource: string;
  status: string;
  dryRun: boolean;
  totalRows: number;
  processedRows: number;
  createdCount: number;
  updatedCount: number;
  failedCount: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

const FINAL = ['succeeded', 'failed', 'cancelled'];

describe('imports', () => {
  let sut: TestApp;
  let team: Team;
  let other: Team;

  beforeAll(async () => {
    sut = await createTestApp();
    team = await sut.createTeam('Imports team');
    other = await sut.createTeam('Other team');
  });
  afterAll(() => sut.close());

  const post = (resource: string, body: string | Buffer, type = 'text/csv', extra = '', who: Team = team) =>
    sut
      .http()
      .post(`/v1/imports?resource=${resource}${extra}`)
      .set(...bearer(who))
      .set('Content-Type', type)
      .send(body);
  const get = (path: string, who: Team = team) =>
    sut
      .http()
      .get(path)
      .set(...bearer(who));

  /** Posts an import and waits for it to reach a final status. */
  async function imported(resource: string, body: string | Buffer, type = 'text/csv', extra = ''): Promise<Import> {
    const response = await post(resource, body, type, extra);
    expect(response.status).toBe(202);
    const { id } = (response.body as { data: Import }).data;
    let current: Import | undefined;
    await until(async () => {
      current = ((await get(`/v1/imports/${id}`)).body as { data: Import }).data;
      return FINAL.includes(current.status);
    }, `import ${id} to finish`);
    return current as Import;
  }

  const list = async (path: string, who: Team = team) =>
    (await get(path, who)).body as { data: Record<string, unknown>[] };

  it('creates units from CSV, answering 202 with the queued import', async () => {
    const csv =
      'externalRef,addressLine1,city,postcode,country,id,fullAddress\nU-1,1 High St,Leeds,LS1 1AA,GB,,\nU-2,2 High St,Leeds,LS1 1AB,GB,,\n';
    const response = await post('units', csv);
    expect(response.status).toBe(202);
    const queued = (response.body as { data: Import }).data;
    expect(queued).toEqual({
      id: expect.stringMatching(UUID),
      resource: 'units',
      status: 'queued',
      dryRun: false,
      totalRows: 2,
      processedRows: 0,
      createdCount: 0,
      updatedCount: 0,
      failedCount: 0,
      createdAt: expect.stringMatching(ISO_WITH_MS),
      startedAt: null,
      finishedAt: null,
    });
    await until(
      async () => ((await get(`/v1/imports/${queued.id}`)).body as { data: Import }).data.status === 'succeeded',
      'the import',
    );
    const done = ((await get(`/v1/imports/${queued.id}`)).body as { data: Import }).data;
    expect(done).toMatchObject({ processedRows: 2, createdCount: 2, updatedCount: 0, failedCount: 0 });
    expect(done.startedAt).toMatch(ISO_WITH_MS);
    expect(done.finishedAt).toMatch(ISO_WITH_MS);
    const units = await list('/v1/units?externalRef=U-1');
    expect(units.data).toEqual([
      expect.objectContaining({ externalRef: 'U-1', fullAddress: '1 High St, Leeds, LS1 1AA, GB' }),
    ]);
  });

  it('answers GET one with a strong ETag that follows the import, and 304 to a poll that still has it', async () => {
    const done = await imported('landlords', 'externalRef,name\nL-TAG,Tagged\n');
    const read = await get(`/v1/imports/${done.id}`);
    const etag = read.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get(`/v1/imports/${done.id}`)).headers.etag).toBe(etag);
    const unchanged = await sut
      .http()
      .get(`/v1/imports/${done.id}`)
      .set(...bearer(team))
      .set('If-None-Match', etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.text ?? '').toBe('');
    // Another import (other counts, other times): another tag, and the old one no longer matches it.
    const next = await imported('landlords', 'externalRef,name\nL-TAG-2,Tagged\nL-TAG-3,\n');
    const changed = await sut
      .http()
      .get(`/v1/imports/${next.id}`)
      .set(...bearer(team))
      .set('If-None-Match', etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('updates the record an externalRef names (as a PUT: omitted fields keep their values), and creates the others', async () => {
    const result = await imported('units', 'externalRef,city\nU-1,York\nU-3,York\n');
    // U-3 is new and lacks the required fields: the row fails as the POST would.
    expect(result).toMatchObject({
      status: 'succeeded',
      totalRows: 2,
      processedRows: 2,
      createdCount: 0,
      updatedCount: 1,
      failedCount: 1,
    });
    const [unit] = (await list('/v1/units?externalRef=U-1')).data;
    expect(unit).toMatchObject({ city: 'York', addressLine1: '1 High St', postcode: 'LS1 1AA' });
    const errors = (await get(`/v1/imports/${result.id}/errors`)).body as { data: unknown[]; pagination: object };
    expect(errors.data).toEqual([{ row: 2, externalRef: 'U-3', error: expect.stringContaining('addressLine1') }]);
  });

  it('lets a later row of the same import update what an earlier row created, and forgets a row that failed', async () => {
    // Row 1 creates U-20 and row 2 updates it (the batch's external ids are read once, then kept up to date); row 3
    // fails (no postcode), so U-21 is still unknown and row 4 creates it.
    const result = await imported(
      'units',
      'externalRef,addressLine1,city,postcode,country\n' +
        'U-20,20 Mill Lane,Leeds,LS1 2AA,GB\n' +
        'U-20,,Bradford,,\n' +
        'U-21,21 Mill Lane,Leeds,,GB\n' +
        'U-21,21 Mill Lane,Leeds,LS1 2AB,GB\n',
    );
    expect(result).toMatchObject({ createdCount: 2, updatedCount: 1, failedCount: 1 });
    const [first] = (await list('/v1/units?externalRef=U-20')).data;
    expect(first).toMatchObject({ addressLine1: '20 Mill Lane', city: 'Bradford', postcode: 'LS1 2AA' });
    const [second] = (await list('/v1/units?externalRef=U-21')).data;
    expect(second).toMatchObject({ postcode: 'LS1 2AB' });
  });

  it('links tenants by unitExternalRefs and work orders by unitExternalRef / tenantExternalRef, with any status', async () => {
    const tenants = await imported(
      'tenants',
      'externalRef,firstName,lastName,unitExternalRefs\nT-1,Ada,Lovelace,U-1;U-2\nT-2,Alan,Turing,U-404\n',
    );
    expect(tenants).toMatchObject({ createdCount: 1, failedCount: 1 });
    const errors = (await get(`/v1/imports/${tenants.id}/errors`)).body as { data: { error: string }[] };
    expect(errors.data).toEqual([{ row: 2, externalRef: 'T-2', error: expect.stringContaining('"U-404"') }]);
    const [tenant] = (await list('/v1/tenants?externalRef=T-1')).data as { tenantUnits: unknown[] }[];
    expect(tenant.tenantUnits).toHaveLength(2);

    const lines = [
      { externalRef: 'WO-1', title: 'Leak', unitExternalRef: 'U-1', tenantExternalRef: 'T-1', status: 'completed' },
      { externalRef: 'WO-2', title: 'Door', unitExternalRef: 'U-2' },
    ];
    const orders = await imported(
      'work-orders',
      lines.map((line) => JSON.stringify(line)).join('\n'),
      'application/x-ndjson',
    );
    expect(orders).toMatchObject({ status: 'succeeded', createdCount: 2, failedCount: 0 });
    const [completed] = (await list('/v1/work-orders?externalRef=WO-1')).data;
    expect(completed).toMatchObject({ status: 'completed', resolvedAt: orders.createdAt });
    // Back to reported: no transition rules for an import.
    const again = await imported(
      'work-orders',
      JSON.stringify({ externalRef: 'WO-1', status: 'reported' }),
      'application/x-ndjson',
    );
    expect(again).toMatchObject({ updatedCount: 1, failedCount: 0 });
    expect((await list('/v1/work-orders?externalRef=WO-1')).data[0]).toMatchObject({
      status: 'reported',
      resolvedAt: null,
    });
  });

  it('fails an NDJSON row with an unknown property or bad JSON, and writes the others', async () => {
    const body = [
      JSON.stringify({ externalRef: 'L-1', name: 'Landlord One', colour: 'blue' }),
      '{not json',
      JSON.stringify({ externalRef: 'L-2', name: 'Landlord Two', status: 'inactive' }),
    ].join('\n');
    const result = await imported('landlords', body, 'application/x-ndjson');
    expect(result).toMatchObject({ totalRows: 3, createdCount: 1, failedCount: 2 });
    const errors = (await get(`/v1/imports/${result.id}/errors?pageSize=1`)).body as {
      data: { row: number; externalRef: string | null; error: string }[];
      pagination: { total: number };
    };
    expect(errors.data).toEqual([{ row: 1, externalRef: 'L-1', error: expect.stringContaining('colour') }]);
    expect(errors.pagination).toMatchObject({ total: 2 });
    const second = (await get(`/v1/imports/${result.id}/errors?page=2&pageSize=1`)).body as { data: unknown[] };
    expect(second.data).toEqual([{ row: 2, externalRef: null, error: 'The line is not valid JSON' }]);
    // A landlord's own status is a field of its POST, written as given.
    expect((await list('/v1/landlords?externalRef=L-2')).data).toEqual([
      expect.objectContaining({ status: 'inactive' }),
    ]);
  });

  it('fails an NDJSON line carrying an answer-only property (id, teamId, createdAt…) as the POST would', async () => {
    const [landlord] = (await list('/v1/landlords?externalRef=L-2')).data;
    expect(landlord).toMatchObject({ id: expect.stringMatching(UUID), createdAt: expect.any(String) });
    const { id, teamId, createdAt, updatedAt, ...fields } = landlord;
    const lines = [
      { ...fields, externalRef: 'L-COPY-1', id },
      { ...fields, externalRef: 'L-COPY-2', teamId },
      { ...fields, externalRef: 'L-COPY-3', createdAt, updatedAt },
      { ...fields, externalRef: 'L-COPY-4' },
    ];
    const result = await imported(
      'landlords',
      lines.map((line) => JSON.stringify(line)).join('\n'),
      'application/x-ndjson',
    );
    expect(result).toMatchObject({ createdCount: 1, updatedCount: 0, failedCount: 3 });
    const posted = await sut
      .http()
      .post('/v1/landlords')
      .set(...bearer(team))
      .send({ ...fields, externalRef: 'L-POSTED', id });
    const errors = ((await get(`/v1/imports/${result.id}/errors`)).body as { data: unknown[] }).data;
    expect(errors).toEqual([
      { row: 1, externalRef: 'L-COPY-1', error: expectError(posted, 400) },
      { row: 2, externalRef: 'L-COPY-2', error: 'property teamId should not exist' },
      {
        row: 3,
        externalRef: 'L-COPY-3',
        error: expect.stringMatching(/^property (createdAt|updatedAt) should not exist/),
      },
    ]);
    expect((await list('/v1/landlords?externalRef=L-COPY-4')).data).toHaveLength(1);
  });

  it('dry run: counts what it would do and writes nothing', async () => {
    const result = await imported(
      'contractors',
      'externalRef,companyName,contactName,trades\nC-DRY,Dry Run Ltd,Dee Ryan,plumbing;heating\nC-DRY,Dry Run Ltd,Dee Ryan,plumbing\n',
      'text/csv',
      '&dryRun=true',
    );
    // The second row updates what the first would have created (in the same batch).
    expect(result).toMatchObject({
      dryRun: true,
      status: 'succeeded',
      createdCount: 1,
      updatedCount: 1,
      failedCount: 0,
    });
    expect(((await get(`/v1/imports/${result.id}/errors`)).body as { data: unknown[] }).data).toEqual([]);
    expect((await list('/v1/contractors?externalRef=C-DRY')).data).toEqual([]);
  });

  it('dry run across batches: the counts the real run then has, a repeated externalRef an update in both', async () => {
    // Row 1 creates D-1; the last row, a batch later, names it again (and one more row fails in between).
    const rows = Array.from({ length: IMPORT_BATCH_ROWS + 1 }, (_, index) =>
      index === IMPORT_BATCH_ROWS ? 'D-1,Renamed' : index === 7 ? 'D-8,' : `D-${index + 1},Landlord ${index + 1}`,
    );
    const csv = `externalRef,name\n${rows.join('\n')}\n`;
    const counts = (result: Import) => [result.createdCount, result.updatedCount, result.failedCount];
    const dry = await imported('landlords', csv, 'text/csv', '&dryRun=true');
    expect((await list('/v1/landlords?externalRef=D-1')).data).toEqual([]);
    const real = await imported('landlords', csv);
    expect(counts(real)).toEqual([IMPORT_BATCH_ROWS - 1, 1, 1]);
    expect(counts(dry)).toEqual(counts(real));
    expect((await list('/v1/landlords?externalRef=D-1')).data).toEqual([expect.objectContaining({ name: 'Renamed' })]);
  });

  it('names a failed row by its externalRef, trimmed: also when a cell cannot be read; null when blank', async () => {
    const csv =
      'externalRef,companyName,contactName,certifications\n' +
      'CI-2,Cell Ltd,Cy Ell,not json\n' +
      '  PAD-1  ,Pad Ltd,,\n' +
      '   ,Blank Ltd,,\n';
    const result = await imported('contractors', csv);
    expect(result).toMatchObject({ createdCount: 0, failedCount: 3 });
    const errors = (await get(`/v1/imports/${result.id}/errors`)).body as {
      data: { row: number; externalRef: string | null }[];
    };
    expect(errors.data.map(({ row, externalRef }) => [row, externalRef])).toEqual([
      [1, 'CI-2'],
      [2, 'PAD-1'],
      [3, null],
    ]);
  });

  it('fails a row with cells under no column (they would be dropped unseen); empty extra cells are fine', async () => {
    const csv = 'externalRef,name\n' + 'XC-1,Extra Lettings,stray\n' + 'XC-2,Trailing Lettings,,\n' + 'XC-3,Short\n';
    const result = await imported('landlords', csv);
    expect(result).toMatchObject({ createdCount: 2, failedCount: 1 });
    const errors = (await get(`/v1/imports/${result.id}/errors`)).body as { data: unknown[] };
    expect(errors.data).toEqual([
      { row: 1, externalRef: 'XC-1', error: "the row has 3 cells, more than the header's 2 columns" },
    ]);
  });

  it('refuses an unknown CSV column with 400 before it starts, and other content types with 415', async () => {
    expect(expectError(await post('units', 'externalRef,colour\nU-9,blue\n'), 400)).toMatch(/^Unknown column colour/);
    expectError(await post('units', '{}', 'application/json'), 415);
    expectError(await post('planets', 'externalRef\nX\n'), 400);
    const imports = (await list('/v1/imports?pageSize=50')).data;
    expect(imports.every((item) => item.status !== 'queued' || item.totalRows !== 1)).toBe(true);
  });

  it('refuses a body that is not UTF-8 with 400 naming its first bad byte, and stores nothing; a declared charset is read', async () => {
    const postBytes = (body: Buffer, type: string) =>
      sut
        .http()
        .post('/v1/imports?resource=units')
        .set(...bearer(team))
        .set('Content-Type', type)
        .send(body);
    const total = async () => ((await get('/v1/imports')).body as { pagination: { total: number } }).pagination.total;
    const before = await total();
    // Windows-1252 text sent as UTF-8 (the usual spreadsheet export): its é is no UTF-8 character.
    const csv = Buffer.from(
      'externalRef,addressLine1,city,postcode,country\nU-LAT,1 Caf\xe9 Rd,Leeds,LS1 1AA,GB\n',
      'latin1',
    );
    const advice = 'save it as UTF-8, or name its encoding in Content-Type (e.g. text/csv; charset=windows-1252)';
    expect(expectError(await postBytes(csv, 'text/csv'), 400)).toBe(
      `The body is not valid UTF-8 text (byte ${csv.indexOf(0xe9) + 1}, line 2): ${advice}`,
    );
    const ndjson = Buffer.concat([
      Buffer.from('{"addressLine1":"ok"}\n{"addressLine1":"'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('"}\n'),
    ]);
    // An encoded UTF-16 surrogate is not UTF-8 either (RFC 3629); nor is a character cut short at the end.
    expect(expectError(await postBytes(ndjson, 'application/x-ndjson'), 400)).toBe(
      `The body is not valid UTF-8 text (byte 40, line 2): ${advice}`,
    );
    const cut = Buffer.concat([Buffer.from('{"addressLine1":"x"}\n'), Buffer.from([0xe2, 0x82])]);
    expect(expectError(await postBytes(cut, 'application/x-ndjson'), 400)).toBe(
      `The body is not valid UTF-8 text (byte ${cut.length - 1}, line 2): ${advice}`,
    );
    expect(await total()).toBe(before);
    expect((await list('/v1/units?externalRef=U-LAT')).data).toEqual([]);

    expect(expectError(await postBytes(csv, 'text/csv; charset=klingon'), 415)).toBe(
      'Unsupported charset klingon: send UTF-8, or a charset such as windows-1252 or iso-8859-1',
    );
    // With an Idempotency-Key the refusal is stored; the same bytes read in another charset are another request.
    const keyed = (type: string) =>
      sut
        .http()
        .post('/v1/imports?resource=units')
        .set(...bearer(team))
        .set('Idempotency-Key', 'import-charset-retry')
        .set('Content-Type', type)
        .send(csv);
    expectError(await keyed('text/csv'), 400);
    expect(expectError(await keyed('text/csv; charset=windows-1252'), 422)).toMatch(/different request/);
    const result = await imported('units', csv, 'text/csv; charset=windows-1252');
    expect(result).toMatchObject({ status: 'succeeded', createdCount: 1, failedCount: 0 });
    expect((await list('/v1/units?externalRef=U-LAT')).data).toEqual([
      expect.objectContaining({ addressLine1: '1 Café Rd' }),
    ]);
  });

  it('refuses more than 50,000 rows with 413', async () => {
    const csv = `externalRef\n${'X\n'.repeat(50_001)}`;
    expect(expectError(await post('units', csv), 413)).toMatch(/50000 rows/);
  });

  it('refuses a body over 20 MiB with 413', async () => {
    const csv = `externalRef,addressLine1\n${`X,${'a'.repeat(1000)}\n`.repeat(21 * 1024)}`;
    expectError(await post('units', csv), 413);
  });

  it('announces each record (history actor: the import) and the import itself (import.completed)', async () => {
    const result = await imported(
      'units',
      'externalRef,addressLine1,city,postcode,country\nU-EV,3 Low St,Hull,HU1 1AA,GB\n',
    );
    const [unit] = (await list('/v1/units?externalRef=U-EV')).data as { id: string }[];
    const history = (await get(`/v1/units/${unit.id}/history`)).body as { data: { type: string; actor: object }[] };
    expect(history.data).toEqual([
      expect.objectContaining({ type: 'created', actor: { type: 'import', id: result.id } }),
    ]);
    const events = (await get('/v1/events?types=import.completed')).body as { data: { data: { object: Import } }[] };
    expect(events.data.map((event) => event.data.object)).toContainEqual(
      expect.objectContaining({ id: result.id, status: 'succeeded' }),
    );
  });

  it('cancel: 200 with the cancelled import, then 409; 404 for another team', async () => {
    const result = await imported('units', 'externalRef\n');
    expect(result).toMatchObject({ status: 'succeeded', totalRows: 0 });
    expectError(
      await sut
        .http()
        .post(`/v1/imports/${result.id}/cancel`)
        .set(...bearer(team)),
      409,
    );
    const queued = (await post('landlords', 'externalRef,name\nL-C,Cancelled\n')).body as { data: Import };
    const cancel = await sut
      .http()
      .post(`/v1/imports/${queued.data.id}/cancel`)
      .set(...bearer(team));
    // It may have finished first: either it is cancelled now or it had already ended.
    if (cancel.status === 200) {
      expect((cancel.body as { data: Import }).data).toMatchObject({
        status: 'cancelled',
        finishedAt: expect.stringMatching(ISO_WITH_MS),
      });
      expectError(
        await sut
          .http()
          .post(`/v1/imports/${queued.data.id}/cancel`)
          .set(...bearer(team)),
        409,
      );
    } else expectError(cancel, 409);
    expectError(
      await sut
        .http()
        .post(`/v1/imports/${queued.data.id}/cancel`)
        .set(...bearer(other)),
      404,
    );
  });

  it('Idempotency-Key: a repeat is answered as the first, with no second import; another body is 422', async () => {
    const send = (csv = 'externalRef,name\nL-I,Once\n') =>
      sut
        .http()
        .post('/v1/imports?resource=landlords')
        .set(...bearer(team))
        .set('Idempotency-Key', 'import-once')
        .set('Content-Type', 'text/csv')
        .send(csv);
    const count = async () =>
      (await sut.sql<{ n: number }>('SELECT count(*)::int AS n FROM imports WHERE team_id = $1', [team.teamId]))[0].n;
    const first = await send();
    const before = await count();
    const second = await send();
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect((second.body as { data: Import }).data.id).toBe((first.body as { data: Import }).data.id);
    expect(expectError(await send('externalRef,name\nL-I,Twice\n'), 422)).toMatch(/different request/);
    expect(await count()).toBe(before);
  });

  it('Idempotency-Key: a refused import is stored like any answer (the same again replays it, another body is 422)', async () => {
    const send = (key: string, contentType: string, path = '/v1/imports?resource=landlords', csv = 'name\nRefused\n') =>
      sut
        .http()
        .post(path)
        .set(...bearer(team))
        .set('Idempotency-Key', key)
        .set('Content-Type', contentType)
        .send(csv);
    const count = async () =>
      (await sut.sql<{ n: number }>('SELECT count(*)::int AS n FROM imports WHERE team_id = $1', [team.teamId]))[0].n;
    const before = await count();
    for (const [key, status, again] of [
      ['import-refused-type', 415, () => send('import-refused-type', 'text/plain')],
      ['import-refused-query', 400, () => send('import-refused-query', 'text/csv', '/v1/imports?resource=nothing')],
    ] as const) {
      const first = await again();
      expect({ key, status: first.status, replayed: first.headers['idempotent-replayed'] }).toEqual({
        key,
        status,
        replayed: 'false',
      });
      const repeat = await again();
      expect({
        key,
        status: repeat.status,
        replayed: repeat.headers['idempotent-replayed'],
        body: repeat.body,
      }).toEqual({ key, status, replayed: 'true', body: first.body });
    }
    // The refused query's key with another body: another request.
    const other = await send('import-refused-query', 'text/csv', '/v1/imports?resource=nothing', 'name\nOther\n');
    expect(expectError(other, 422)).toMatch(/different request/);
    expect(await count()).toBe(before);
  });

  it('lists imports newest first; another team sees none of them', async () => {
    const mine = (await get('/v1/imports?pageSize=50')).body as { data: Import[]; pagination: { total: number } };
    expect(mine.data.length).toBeGreaterThan(3);
    const created = mine.data.map((item) => item.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const theirs = (await get('/v1/imports', other)).body as { data: Import[] };
    expect(theirs.data).toEqual([]);
    expectError(await get(`/v1/imports/${mine.data[0].id}`, other), 404);
    expectError(await get(`/v1/imports/${mine.data[0].id}/errors`, other), 404);
  });

  it('serves the CSV template of a resource', async () => {
    const response = await get('/v1/imports/template?resource=work-orders');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const header = (response.text ?? '').trim().split(',');
    expect(header).toEqual(
      expect.arrayContaining(['externalRef', 'title', 'status', 'unitExternalRef', 'tenantExternalRef']),
    );
    expect(header).not.toContain('id');
  });
});
