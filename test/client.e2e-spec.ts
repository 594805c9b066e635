import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createPortfolioClient,
  etagOf,
  ifMatch,
  ImportTimeoutError,
  isTestMode,
  PortfolioApiError,
  type Fetch,
  type Import,
  type PortfolioClient,
  type PortfolioClientOptions,
} from '@app/client';
import { ManualClock } from '@app/common';
import { ApiKeysService } from '../apps/api/src/api-keys/index.js';
import { SAMPLE_COUNTS } from '../apps/api/src/sandbox/index.js';
import { conformingFetch, servedConformance } from './support/service-process.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

/** The real app on a real port: the client speaks HTTP to it exactly as it would to a deployment. */
async function serve(sut: TestApp): Promise<string> {
  const server = sut.app.getHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Sent {
  method: string;
  url: string;
  idempotencyKey: string | null;
  ifMatch: string | null;
  contentType: string | null;
}

/**
 * fetch, with every answer checked against the OpenAPI document the app serves (as every e2e answer is); set by
 * each suite once its app listens.
 */
let checkedFetch: typeof fetch = () => Promise.reject(new Error('no app is served yet'));

/** A fetch that records every attempt (what reached the network) before sending it for real. */
function recordingFetch(sent: Sent[], send: Fetch = (request) => checkedFetch(request)): Fetch {
  return (request) => {
    sent.push({
      method: request.method,
      url: request.url,
      idempotencyKey: request.headers.get('Idempotency-Key'),
      ifMatch: request.headers.get('If-Match'),
      contentType: request.headers.get('Content-Type'),
    });
    return send(request);
  };
}

/** Turns `{ data, error, response }` into the data, failing the test with the answer's text otherwise. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined)
    throw new Error(`${result.response.status}: ${JSON.stringify(result.error ?? '(no body)')}`);
  return result.data;
}

describe('typed client (libs/client) against the real app', () => {
  let sut: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let client: PortfolioClient;
  let pacing: PortfolioClient;
  const sent: Sent[] = [];
  const waits: number[] = [];
  /** Every operation the client has sent, as `METHOD /schema/path`, to compare with the document. */
  const exercised = new Set<string>();

  /** A client on the shared app; its waits are recorded, not slept. */
  function clientWith(options: Partial<PortfolioClientOptions> = {}): PortfolioClient {
    const made = createPortfolioClient({
      baseUrl,
      apiKey,
      fetch: recordingFetch(sent),
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...options,
    });
    made.use({
      onRequest: ({ request, schemaPath }) => {
        exercised.add(`${request.method} ${schemaPath}`);
      },
    });
    return made;
  }

  beforeAll(async () => {
    sut = await createTestApp({ config: { WEBHOOKS_ALLOW_HTTP: true, WEBHOOKS_ALLOW_PRIVATE: true } });
    baseUrl = await serve(sut);
    checkedFetch = conformingFetch(await servedConformance(baseUrl));
    ({ apiKey } = await sut.createTeam('Client team'));
    client = clientWith();
    // For imports that must run to their end: the waits really pass (as `until` does), so the readings do not
    // crowd out the import's own work; they are still recorded.
    pacing = clientWith({
      sleep: async (ms) => {
        waits.push(ms);
        await new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
  });
  afterAll(() => sut.close());

  /** Waits for an import to reach its final status, reading it every 20 ms. */
  const finished = (importId: string): Promise<Import> =>
    pacing.waitForImport(importId, { intervalMs: 20, timeoutMs: 60_000 });

  const resetRecords = (): void => {
    sent.length = 0;
    waits.length = 0;
  };

  it('creates, lists, reads, updates and deletes each of the five resources, with types from the document', async () => {
    expect(ok(await client.GET('/health')).status).toBe('ok');
    expect(ok(await client.GET('/health/ready')).status).toBe('ready');

    // Units
    const unit = ok(
      await client.POST('/v1/units', {
        body: { addressLine1: ' 1 Client Street ', city: 'London', country: 'UK', postcode: 'E1 6AN' },
      }),
    ).data;
    expect(unit.fullAddress).toBe('1 Client Street, London, E1 6AN, UK');
    const unitPage = ok(await client.GET('/v1/units', { params: { query: { search: 'client street' } } }));
    expect(unitPage.data.map((row) => row.id)).toEqual([unit.id]);
    expect(unitPage.pagination).toEqual({ total: 1, page: 1, pageSize: 20, pageCount: 1 });
    const readUnit = await client.GET('/v1/units/{unitId}', { params: { path: { unitId: unit.id } } });
    expect(ok(readUnit).data.id).toBe(unit.id);
    const updatedUnit = ok(
      await client.PUT('/v1/units/{unitId}', { params: { path: { unitId: unit.id } }, body: { area: 'Spitalfields' } }),
    ).data;
    expect(updatedUnit.fullAddress).toBe('1 Client Street, Spitalfields, London, E1 6AN, UK');

    // Tenants, linked to the unit
    const tenant = ok(
      await client.POST('/v1/tenants', { body: { firstName: 'Ada', lastName: 'Lovelace', unitIds: [unit.id] } }),
    ).data;
    expect(tenant.tenantUnits.map((link) => link.unit.id)).toEqual([unit.id]);
    expect(ok(await client.GET('/v1/tenants', { params: { query: { search: 'lovelace' } } })).data).toHaveLength(1);
    expect(ok(await client.GET('/v1/tenants/{tenantId}', { params: { path: { tenantId: tenant.id } } })).data.id).toBe(
      tenant.id,
    );
    const renamed = ok(
      await client.PUT('/v1/tenants/{tenantId}', {
        params: { path: { tenantId: tenant.id } },
        body: { email: 'ada@example.com' },
      }),
    ).data;
    expect(renamed.email).toBe('ada@example.com');

    // Contractors
    const contractor = ok(
      await client.POST('/v1/contractors', {
        body: { companyName: 'Fixit Ltd', contactName: 'Bob', trades: ['Plumbing'], coveragePostcodes: ['E1'] },
      }),
    ).data;
    expect(contractor.rating).toBeNull();
    const covering = ok(await client.GET('/v1/contractors', { params: { query: { postcode: 'e1 6an' } } }));
    expect(covering.data.map((row) => row.id)).toEqual([contractor.id]);
    expect(
      ok(await client.GET('/v1/contractors/{contractorId}', { params: { path: { contractorId: contractor.id } } })).data
        .companyName,
    ).toBe('Fixit Ltd');
    expect(
      ok(
        await client.PUT('/v1/contractors/{contractorId}', {
          params: { path: { contractorId: contractor.id } },
          body: { status: 'on_holiday' },
        }),
      ).data.status,
    ).toBe('on_holiday');

    // Work orders: priority is a string, status filters are comma lists
    const order = ok(
      await client.POST('/v1/work-orders', {
        body: {
          title: 'Leaking tap',
          unitId: unit.id,
          tenantId: tenant.id,
          contractorId: contractor.id,
          priority: '1',
        },
      }),
    ).data;
    expect(order).toMatchObject({ code: 'WO-1', status: 'reported', priority: '1' });
    expect(order.contractor).toEqual({ id: contractor.id, companyName: 'Fixit Ltd' });
    const open = ok(
      await client.GET('/v1/work-orders', {
        params: { query: { status: ['reported', 'in_progress'], unitId: unit.id } },
      }),
    );
    expect(open.data.map((row) => row.id)).toEqual([order.id]);
    const done = ok(
      await client.PUT('/v1/work-orders/{workOrderId}', {
        params: { path: { workOrderId: order.id } },
        body: { status: 'completed' },
      }),
    ).data;
    expect(done.status).toBe('completed');
    expect(done.resolvedAt).not.toBeNull();
    expect(
      ok(await client.GET('/v1/work-orders/{workOrderId}', { params: { path: { workOrderId: order.id } } })).data
        .status,
    ).toBe('completed');

    // Landlords
    const landlord = ok(await client.POST('/v1/landlords', { body: { name: 'Grace Estates' } })).data;
    expect(landlord.status).toBe('active');
    expect(ok(await client.GET('/v1/landlords', { params: { query: { status: ['active'] } } })).data).toHaveLength(1);
    expect(
      ok(await client.GET('/v1/landlords/{landlordId}', { params: { path: { landlordId: landlord.id } } })).data.name,
    ).toBe('Grace Estates');
    expect(
      ok(
        await client.PUT('/v1/landlords/{landlordId}', {
          params: { path: { landlordId: landlord.id } },
          body: { status: 'inactive' },
        }),
      ).data.status,
    ).toBe('inactive');

    // A business 409 is final: the client hands it back without waiting or sending it again.
    resetRecords();
    const refused = await client.DELETE('/v1/units/{unitId}', { params: { path: { unitId: unit.id } } });
    expect(refused.response.status).toBe(409);
    expect(refused.error?.error).toMatch(/work order/i);
    expect(waits).toEqual([]);
    expect(sent).toHaveLength(1);

    // Deletes, in the order the references allow; each is a 204 and the record is gone.
    const deletions = [
      () => client.DELETE('/v1/work-orders/{workOrderId}', { params: { path: { workOrderId: order.id } } }),
      () => client.DELETE('/v1/contractors/{contractorId}', { params: { path: { contractorId: contractor.id } } }),
      () => client.DELETE('/v1/tenants/{tenantId}', { params: { path: { tenantId: tenant.id } } }),
      () => client.DELETE('/v1/units/{unitId}', { params: { path: { unitId: unit.id } } }),
      () => client.DELETE('/v1/landlords/{landlordId}', { params: { path: { landlordId: landlord.id } } }),
    ];
    for (const remove of deletions) {
      const { response } = await remove();
      expect(response.status).toBe(204);
    }
    const gone = await client.GET('/v1/units/{unitId}', { params: { path: { unitId: unit.id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toEqual({ error: 'Unit not found' });
  });

  it('sends the key as a bearer token and an Idempotency-Key on every write, a new one per call', async () => {
    resetRecords();
    const stranger = createPortfolioClient({ baseUrl, apiKey: 'ppk_not-a-real-key' });
    const denied = await stranger.GET('/v1/units');
    expect(denied.response.status).toBe(401);

    const first = await client.POST('/v1/landlords', { body: { name: 'Keyed One' } });
    const second = await client.POST('/v1/landlords', { body: { name: 'Keyed Two' } });
    expect(first.response.headers.get('Idempotent-Replayed')).toBe('false');
    const keys = sent.map((attempt) => attempt.idempotencyKey);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(second.response.status).toBe(201);

    // A key the caller chose is kept (and replays like any other).
    resetRecords();
    const mine = { 'Idempotency-Key': 'my-own-key-1' };
    const made = await client.POST('/v1/landlords', { body: { name: 'Mine' }, params: { header: mine } });
    const again = await client.POST('/v1/landlords', { body: { name: 'Mine' }, params: { header: mine } });
    expect(sent.map((attempt) => attempt.idempotencyKey)).toEqual(['my-own-key-1', 'my-own-key-1']);
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(ok(again).data.id).toBe(ok(made).data.id);
  });

  it('refuses a conditional update with a stale ETag (412) and applies one with the current ETag', async () => {
    const created = await client.POST('/v1/units', {
      body: { addressLine1: '2 Etag Road', city: 'Leeds', country: 'UK', postcode: 'LS1 1AA' },
    });
    const unitId = ok(created).data.id;
    const read = await client.GET('/v1/units/{unitId}', { params: { path: { unitId } } });
    const etag = etagOf(read);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(etagOf(created)).toBe(etag);

    resetRecords();
    const updated = await client.PUT('/v1/units/{unitId}', {
      params: { path: { unitId }, header: ifMatch(etag!) },
      body: { county: 'West Yorkshire' },
    });
    expect(updated.response.status).toBe(200);
    expect(sent[0]?.ifMatch).toBe(etag);
    const newer = etagOf(updated);
    expect(newer).not.toBe(etag);

    const stale = await client.PUT('/v1/units/{unitId}', {
      params: { path: { unitId }, header: ifMatch(etag!) },
      body: { county: 'Somewhere Else' },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error?.error).toMatch(/If-Match/);
    expect(waits).toEqual([]);
    const after = ok(await client.GET('/v1/units/{unitId}', { params: { path: { unitId } } })).data;
    expect(after.county).toBe('West Yorkshire');

    const staleDelete = await client.DELETE('/v1/units/{unitId}', {
      params: { path: { unitId }, header: ifMatch(etag!) },
    });
    expect(staleDelete.response.status).toBe(412);
    const deleted = await client.DELETE('/v1/units/{unitId}', {
      params: { path: { unitId }, header: ifMatch(newer!) },
    });
    expect(deleted.response.status).toBe(204);
  });

  it('retries a POST whose answer was lost with the same Idempotency-Key: exactly one record is created', async () => {
    resetRecords();
    let answered = 0;
    // The server receives and completes the first attempt; its answer is lost on the way back.
    const flaky = clientWith({
      fetch: recordingFetch(sent, async (request) => {
        const response = await checkedFetch(request);
        answered += 1;
        if (answered === 1) {
          await response.body?.cancel();
          throw new TypeError('fetch failed: connection reset');
        }
        return response;
      }),
    });
    const result = await flaky.POST('/v1/landlords', { body: { name: 'Exactly Once Holdings' } });

    expect(result.response.status).toBe(201);
    expect(result.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(sent).toHaveLength(2);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    expect(waits).toHaveLength(1);
    const rows = await sut.sql(`SELECT id FROM landlords WHERE name = 'Exactly Once Holdings'`);
    expect(rows.map((row) => row.id)).toEqual([ok(result).data.id]);
  });

  it('retries a write after a 5xx and after a 409 "in progress" with the same key, within maxAttempts', async () => {
    resetRecords();
    const fabricated = [
      () => Response.json({ error: 'Internal server error' }, { status: 503 }),
      () =>
        Response.json(
          { error: 'A request with this Idempotency-Key is still in progress; retry later' },
          { status: 409 },
        ),
    ];
    const busy = clientWith({
      fetch: recordingFetch(sent, async (request) => fabricated.shift()?.() ?? checkedFetch(request)),
    });
    const created = await busy.POST('/v1/landlords', { body: { name: 'Third Time Lucky' } });
    expect(created.response.status).toBe(201);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
    expect(waits).toEqual([250, 500]);

    // Bounded: a server that keeps failing gets maxAttempts attempts, then the caller sees the 5xx.
    resetRecords();
    const down = clientWith({
      retry: { maxAttempts: 2 },
      fetch: recordingFetch(sent, async () => Response.json({ error: 'Internal server error' }, { status: 500 })),
    });
    const failed = await down.POST('/v1/landlords', { body: { name: 'Never' } });
    expect(failed.response.status).toBe(500);
    expect(sent).toHaveLength(2);

    // A network error that persists is thrown once the attempts are spent.
    resetRecords();
    const offline = clientWith({
      fetch: recordingFetch(sent, async () => {
        throw new TypeError('fetch failed');
      }),
    });
    await expect(offline.GET('/v1/landlords')).rejects.toThrow('fetch failed');
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([250, 500]);
  });

  it('paginate walks every page of a list, with the filters kept on each request', async () => {
    const names = ['Page A', 'Page B', 'Page C', 'Page D', 'Page E'];
    const ids: string[] = [];
    for (const name of names) ids.push(ok(await client.POST('/v1/landlords', { body: { name } })).data.id);

    resetRecords();
    const walked: string[] = [];
    for await (const landlord of client.paginate('/v1/landlords', { search: 'page ', pageSize: 2 })) {
      walked.push(landlord.name);
    }
    expect(walked).toEqual([...names].reverse());
    const pages = sent.map((attempt) => new URL(attempt.url).searchParams);
    expect(pages.map((query) => query.get('page'))).toEqual(['1', '2', '3']);
    expect(pages.every((query) => query.get('pageSize') === '2' && query.get('search') === 'page ')).toBe(true);

    // An empty list is one request and no records; a refused page throws with the server's text.
    resetRecords();
    const none: unknown[] = [];
    for await (const landlord of client.paginate('/v1/landlords', { search: 'no such landlord' })) none.push(landlord);
    expect(none).toEqual([]);
    expect(sent).toHaveLength(1);
    const walk = async (): Promise<void> => {
      for await (const _ of client.paginate('/v1/landlords', { pageSize: 51 })) void _;
    };
    await expect(walk()).rejects.toThrow(PortfolioApiError);
    await expect(walk()).rejects.toThrow(/pageSize/);
  });

  it('exportCsv answers every matching record of a list as CSV text, with its filters', async () => {
    const names = ['Export, "one"', 'Export two'];
    for (const name of names) ok(await client.POST('/v1/landlords', { body: { name } }));

    resetRecords();
    const csv = await client.exportCsv('/v1/landlords', { search: 'export', sort: 'createdAt' });
    const [header, ...rows] = csv.split('\r\n');
    expect(header.split(',')).toContain('name');
    expect(rows.filter((row) => row !== '').map((row) => row.includes('"Export, ""one"""'))).toEqual([true, false]);
    expect(sent).toHaveLength(1);
    expect(new URL(sent[0].url).searchParams.get('search')).toBe('export');

    const refused = (): Promise<string> => client.exportCsv('/v1/landlords', { sort: 'sideways' as 'createdAt' });
    await expect(refused()).rejects.toThrow(PortfolioApiError);
    await expect(refused()).rejects.toThrow(/sort/);
  });

  it('events follows the feed from a cursor, page by page, each event once', async () => {
    const collect = async (options: Parameters<PortfolioClient['events']>[0]) => {
      const seen: Array<{ id: string; type: string; name: unknown }> = [];
      for await (const event of client.events(options)) {
        seen.push({ id: event.id, type: event.type, name: (event.data.object as { name?: unknown }).name });
      }
      return seen;
    };
    const before = await collect({ limit: 100 });
    const cursor = before.at(-1)?.id;
    for (const name of ['Feed A', 'Feed B', 'Feed C']) await client.POST('/v1/landlords', { body: { name } });
    resetRecords();
    const fresh = await collect({ after: cursor, limit: 2 });
    expect(fresh.map((event) => `${event.type} ${String(event.name)}`)).toEqual([
      'landlord.created Feed A',
      'landlord.created Feed B',
      'landlord.created Feed C',
    ]);
    expect(sent).toHaveLength(2);
    expect(await collect({ after: fresh.at(-1)?.id })).toEqual([]);
    expect(await collect({ after: cursor, types: ['tenant.deleted'] })).toEqual([]);
  });

  it('manages webhook endpoints and their deliveries, with types from the document', async () => {
    const created = ok(
      await client.POST('/v1/webhook-endpoints', {
        body: { url: 'http://127.0.0.1:9/hooks', types: ['landlord.created'], description: 'Client hook' },
      }),
    ).data;
    expect(created.secret).toMatch(/^whsec_/);
    const path = { params: { path: { endpointId: created.id } } };
    expect(ok(await client.GET('/v1/webhook-endpoints')).data.map((endpoint) => endpoint.id)).toContain(created.id);
    expect(ok(await client.GET('/v1/webhook-endpoints/{endpointId}', path)).data.types).toEqual(['landlord.created']);
    expect(
      ok(await client.PUT('/v1/webhook-endpoints/{endpointId}', { ...path, body: { types: null } })).data.types,
    ).toBeNull();
    expect(ok(await client.POST('/v1/webhook-endpoints/{endpointId}/rotate-secret', path)).data.secret).not.toBe(
      created.secret,
    );
    const ping = ok(await client.POST('/v1/webhook-endpoints/{endpointId}/test', path)).data;
    expect(ping.type).toBe('ping');
    const log = ok(await client.GET('/v1/webhook-endpoints/{endpointId}/deliveries', path)).data;
    expect(log.map((delivery) => delivery.id)).toContain(ping.id);
    const retried = ok(
      await client.POST('/v1/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry', {
        params: { path: { endpointId: created.id, deliveryId: ping.id } },
      }),
    ).data;
    expect(retried.state).toBe('pending');
    const removed = await client.DELETE('/v1/webhook-endpoints/{endpointId}', path);
    expect(removed.response.status).toBe(204);
  });

  it('imports CSV rows and follows the import to its end, with its errors, a cancel refused and the template', async () => {
    const csv =
      'externalRef,addressLine1,city,postcode,country\nCLIENT-1,1 Client Row,Leeds,LS1 1CL,GB\nCLIENT-2,,Leeds,LS1 1CL,GB\n';
    const queued = ok(
      await client.POST('/v1/imports', {
        params: { query: { resource: 'units' } },
        body: csv,
        bodySerializer: (body: string) => body,
        headers: { 'Content-Type': 'text/csv' },
      }),
    ).data;
    expect(queued).toMatchObject({ resource: 'units', status: 'queued', totalRows: 2 });
    const path = { params: { path: { importId: queued.id } } };
    await until(
      async () => ok(await client.GET('/v1/imports/{importId}', path)).data.status === 'succeeded',
      'the import to finish',
    );
    expect(ok(await client.GET('/v1/imports')).data.map((item) => item.id)).toContain(queued.id);
    const errors = ok(await client.GET('/v1/imports/{importId}/errors', path)).data;
    expect(errors).toEqual([{ row: 2, externalRef: 'CLIENT-2', error: expect.stringContaining('addressLine1') }]);
    const cancel = await client.POST('/v1/imports/{importId}/cancel', path);
    expect(cancel.response.status).toBe(409);
    const template = await client.GET('/v1/imports/template', {
      params: { query: { resource: 'units' } },
      parseAs: 'text',
    });
    expect(template.data).toMatch(/^addressLine1,/);
  });

  it('importRecords sends CSV (text or a Blob); waitForImport follows it to its end; importErrors lists the bad row', async () => {
    resetRecords();
    const csv =
      'externalRef,addressLine1,city,postcode,country\n' +
      'HELPER-U-1,1 Helper Row,York,YO1 7HH,GB\n' +
      'HELPER-U-2,,York,YO1 7HH,GB\n' +
      'HELPER-U-3,3 Helper Row,York,YO1 7HH,GB\n';
    const started = await client.importRecords('units', csv);
    expect(started).toMatchObject({ resource: 'units', status: 'queued', dryRun: false, totalRows: 3 });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', contentType: 'text/csv' });
    expect(sent[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.fromEntries(new URL(sent[0].url).searchParams)).toEqual({ resource: 'units' });

    const done = await finished(started.id);
    expect(done).toMatchObject({
      id: started.id,
      status: 'succeeded',
      totalRows: 3,
      processedRows: 3,
      createdCount: 2,
      updatedCount: 0,
      failedCount: 1,
      finishedAt: expect.any(String),
    });
    expect(waits.every((ms) => ms === 20)).toBe(true);
    expect(sent.filter((attempt) => attempt.method === 'GET')).toHaveLength(waits.length + 1);
    const errors: unknown[] = [];
    for await (const error of client.importErrors(started.id)) errors.push(error);
    expect(errors).toEqual([{ row: 2, externalRef: 'HELPER-U-2', error: expect.stringContaining('addressLine1') }]);
    const units = ok(await client.GET('/v1/units', { params: { query: { search: 'helper row' } } })).data;
    expect(units.map((unit) => unit.externalRef).sort()).toEqual(['HELPER-U-1', 'HELPER-U-3']);

    // A Blob is sent as it is; a row naming an existing externalRef updates that record.
    const again = await client.importRecords(
      'units',
      new Blob(['externalRef,county\nHELPER-U-1,North Yorkshire\n'], { type: 'text/plain' }),
    );
    expect(await finished(again.id)).toMatchObject({ status: 'succeeded', updatedCount: 1 });
    expect(sent.at(-1)?.url).toContain(`/v1/imports/${again.id}`);
    const updated = ok(await client.GET('/v1/units', { params: { query: { search: 'helper row' } } })).data;
    expect(updated.find((unit) => unit.externalRef === 'HELPER-U-1')?.county).toBe('North Yorkshire');

    // A refusal of the whole import throws the API's error; so does reading an import of no one.
    await expect(client.importRecords('units', 'externalRef,colour\nX,red\n')).rejects.toMatchObject({
      status: 400,
      error: expect.stringContaining('colour'),
    });
    await expect(client.waitForImport('00000000-0000-4000-8000-000000000000')).rejects.toThrow(PortfolioApiError);
  });

  it('importRecords sends an array of records as NDJSON; importErrors walks every page of failed rows', async () => {
    resetRecords();
    const started = await client.importRecords('landlords', [
      { externalRef: 'HELPER-L-1', name: 'Ndjson Estates', email: 'ndjson@example.com' },
      { externalRef: 'HELPER-L-2', name: 'Nickname Estates', nickname: 'unknown property' },
      { externalRef: 'HELPER-L-3' },
    ]);
    expect(started).toMatchObject({ resource: 'landlords', status: 'queued', totalRows: 3 });
    expect(sent[0]).toMatchObject({ method: 'POST', contentType: 'application/x-ndjson' });
    expect(sent[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(await finished(started.id)).toMatchObject({
      status: 'succeeded',
      createdCount: 1,
      failedCount: 2,
    });

    resetRecords();
    const errors: Array<{ row: number; externalRef: string | null }> = [];
    for await (const { row, externalRef } of client.importErrors(started.id, { pageSize: 1 })) {
      errors.push({ row, externalRef });
    }
    expect(errors).toEqual([
      { row: 2, externalRef: 'HELPER-L-2' },
      { row: 3, externalRef: 'HELPER-L-3' },
    ]);
    expect(sent.map((attempt) => new URL(attempt.url).searchParams.get('page'))).toEqual(['1', '2']);
    const landlords = ok(await client.GET('/v1/landlords', { params: { query: { search: 'ndjson estates' } } })).data;
    expect(landlords.map((landlord) => landlord.externalRef)).toEqual(['HELPER-L-1']);

    // An NDJSON text is sent as NDJSON when asked; an array cannot be sent as CSV.
    resetRecords();
    const text = await client.importRecords(
      'landlords',
      '{"externalRef":"HELPER-L-1","phoneNumber":"0113 496 0000"}\n',
      {
        format: 'ndjson',
      },
    );
    expect(sent[0].contentType).toBe('application/x-ndjson');
    expect(await finished(text.id)).toMatchObject({ status: 'succeeded', updatedCount: 1 });
    await expect(client.importRecords('landlords', [], { format: 'csv' })).rejects.toThrow(TypeError);
  });

  it('importRecords with dryRun counts what the rows would do and writes nothing', async () => {
    resetRecords();
    const started = await client.importRecords(
      'landlords',
      [{ externalRef: 'HELPER-DRY-1', name: 'Dry Run Lettings' }, { externalRef: 'HELPER-DRY-2' }],
      { dryRun: true },
    );
    expect(started).toMatchObject({ dryRun: true, totalRows: 2 });
    expect(Object.fromEntries(new URL(sent[0].url).searchParams)).toEqual({ resource: 'landlords', dryRun: 'true' });
    expect(await finished(started.id)).toMatchObject({
      status: 'succeeded',
      dryRun: true,
      createdCount: 1,
      failedCount: 1,
    });
    const errors: unknown[] = [];
    for await (const error of client.importErrors(started.id)) errors.push(error);
    expect(errors).toEqual([{ row: 2, externalRef: 'HELPER-DRY-2', error: expect.stringContaining('name') }]);
    const landlords = ok(await client.GET('/v1/landlords', { params: { query: { search: 'dry run lettings' } } }));
    expect(landlords.data).toEqual([]);
  });

  it('waitForImport gives up after timeoutMs of waits (through the injected sleep), naming the last status', async () => {
    // Another session holds the units table, so the import cannot write its row: it stays queued or running.
    const holder = new pg.Client({ connectionString: sut.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE units IN EXCLUSIVE MODE');
      const started = await client.importRecords(
        'units',
        'externalRef,addressLine1,city,postcode,country\nHELPER-T-1,1 Stuck Row,Hull,HU1 1AA,GB\n',
      );

      resetRecords();
      const waiting = client.waitForImport(started.id, { intervalMs: 15_000, timeoutMs: 60_000 });
      await expect(waiting).rejects.toThrow(ImportTimeoutError);
      await expect(waiting).rejects.toThrow(
        new RegExp(`^Import ${started.id} did not finish within 60000 ms: it is still (queued|running) `),
      );
      const failure = (await waiting.catch((error: unknown) => error)) as ImportTimeoutError;
      expect(failure.lastImport).toMatchObject({ id: started.id, finishedAt: null });
      expect(waits).toEqual([15_000, 15_000, 15_000, 15_000]);
      expect(sent.map((attempt) => attempt.method)).toEqual(['GET', 'GET', 'GET', 'GET', 'GET']);

      // An abort stops the wait with the signal's reason, before the next reading.
      resetRecords();
      const controller = new AbortController();
      const aborting = clientWith({
        sleep: async () => {
          controller.abort(new Error('stop waiting'));
        },
      });
      await expect(aborting.waitForImport(started.id, { signal: controller.signal })).rejects.toThrow('stop waiting');
      expect(sent).toHaveLength(1);

      await holder.query('ROLLBACK');
      // Released, it is cancelled (or had just finished): no import of this test is left running.
      await client.POST('/v1/imports/{importId}/cancel', { params: { path: { importId: started.id } } });
      expect(['succeeded', 'cancelled']).toContain((await finished(started.id)).status);
    } finally {
      await holder.end();
    }
  });

  it('carries a repair through: notes on a work order and every record’s history, with types from the document', async () => {
    const unit = ok(
      await client.POST('/v1/units', {
        body: { addressLine1: '2 History Row', city: 'Leeds', country: 'UK', postcode: 'LS1 1AB' },
      }),
    ).data;
    const tenant = ok(await client.POST('/v1/tenants', { body: { firstName: 'Nell', lastName: 'Gwyn' } })).data;
    const landlord = ok(await client.POST('/v1/landlords', { body: { name: 'Harriet Cole' } })).data;
    const contractor = ok(
      await client.POST('/v1/contractors', {
        body: { companyName: 'Drip Ltd', contactName: 'Sam', trades: ['Plumbing'] },
      }),
    ).data;
    const order = ok(
      await client.POST('/v1/work-orders', { body: { title: 'Leak under sink', unitId: unit.id } }),
    ).data;
    const onOrder = { params: { path: { workOrderId: order.id } } };

    const note = ok(
      await client.POST('/v1/work-orders/{workOrderId}/notes', {
        ...onOrder,
        body: { text: 'Tenant phoned: worse at night', authorName: 'Nell Gwyn (tenant)' },
      }),
    ).data;
    expect(note.createdBy.type).toBe('api_key');
    const onNote = { params: { path: { workOrderId: order.id, noteId: note.id } } };
    expect(ok(await client.GET('/v1/work-orders/{workOrderId}/notes', onOrder)).data.map((row) => row.id)).toEqual([
      note.id,
    ]);
    expect(ok(await client.GET('/v1/work-orders/{workOrderId}/notes/{noteId}', onNote)).data.text).toBe(
      'Tenant phoned: worse at night',
    );
    expect(
      ok(await client.PUT('/v1/work-orders/{workOrderId}/notes/{noteId}', { ...onNote, body: { authorName: null } }))
        .data.authorName,
    ).toBeNull();
    expect((await client.DELETE('/v1/work-orders/{workOrderId}/notes/{noteId}', onNote)).response.status).toBe(204);

    const orderHistory = ok(await client.GET('/v1/work-orders/{workOrderId}/history', onOrder)).data;
    expect(orderHistory.map((entry) => entry.type)).toEqual(['note_deleted', 'note_updated', 'note_added', 'created']);
    expect(orderHistory[0].subjectId).toBe(note.id);
    const histories = [
      ok(await client.GET('/v1/units/{unitId}/history', { params: { path: { unitId: unit.id } } })).data,
      ok(await client.GET('/v1/tenants/{tenantId}/history', { params: { path: { tenantId: tenant.id } } })).data,
      ok(await client.GET('/v1/landlords/{landlordId}/history', { params: { path: { landlordId: landlord.id } } }))
        .data,
      ok(
        await client.GET('/v1/contractors/{contractorId}/history', {
          params: { path: { contractorId: contractor.id } },
        }),
      ).data,
    ];
    expect(histories.map((entries) => entries.map((entry) => entry.type))).toEqual([
      ['created'],
      ['created'],
      ['created'],
      ['created'],
    ]);
  });

  it('drives a work order’s notes, attachments (a multipart upload, both downloads) and every history', async () => {
    const unit = ok(
      await client.POST('/v1/units', {
        body: { addressLine1: '2 Upload Row', city: 'Leeds', country: 'UK', postcode: 'LS1 4AP' },
      }),
    ).data;
    const workOrder = ok(
      await client.POST('/v1/work-orders', { body: { title: 'Leaking tap', unitId: unit.id } }),
    ).data;
    const workOrderPath = { workOrderId: workOrder.id };
    const note = ok(
      await client.POST('/v1/work-orders/{workOrderId}/notes', {
        params: { path: workOrderPath },
        body: { text: 'Photo attached' },
      }),
    ).data;
    const notePath = { params: { path: { ...workOrderPath, noteId: note.id } } };
    expect(
      ok(await client.GET('/v1/work-orders/{workOrderId}/notes', { params: { path: workOrderPath } })).data,
    ).toHaveLength(1);

    const pdf = new TextEncoder().encode('%PDF-1.7\n% client upload\n%%EOF\n');
    const uploaded = await client.uploadAttachment(workOrder.id, pdf, { fileName: 'quote.pdf', noteId: note.id });
    expect(uploaded).toMatchObject({ contentType: 'application/pdf', size: pdf.length, noteId: note.id });
    const attachmentPath = { params: { path: { ...workOrderPath, attachmentId: uploaded.id } } };
    expect(ok(await client.GET('/v1/work-orders/{workOrderId}/notes/{noteId}', notePath)).data.attachmentIds).toEqual([
      uploaded.id,
    ]);
    expect(
      ok(await client.GET('/v1/work-orders/{workOrderId}/attachments', { params: { path: workOrderPath } })).data,
    ).toHaveLength(1);
    expect(
      ok(await client.GET('/v1/work-orders/{workOrderId}/attachments/{attachmentId}', attachmentPath)).data.id,
    ).toBe(uploaded.id);
    const content = await client.GET('/v1/work-orders/{workOrderId}/attachments/{attachmentId}/content', {
      ...attachmentPath,
      parseAs: 'arrayBuffer',
    });
    expect(Buffer.from(ok<ArrayBuffer>(content)).equals(Buffer.from(pdf))).toBe(true);
    const signed = new URL(uploaded.downloadUrl);
    const download = await client.GET('/v1/attachment-downloads/{teamId}/{attachmentId}', {
      params: {
        path: { teamId: uploaded.teamId, attachmentId: uploaded.id },
        query: {
          expires: Number(signed.searchParams.get('expires')),
          signature: signed.searchParams.get('signature') ?? '',
        },
      },
      parseAs: 'arrayBuffer',
    });
    expect(Buffer.from(ok<ArrayBuffer>(download)).equals(Buffer.from(pdf))).toBe(true);

    // A File keeps its own name; a description rides along; a refusal throws the API's error.
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], 'leak.png');
    const photo = await client.uploadAttachment(workOrder.id, png, { description: 'Under the sink' });
    expect(photo).toMatchObject({ fileName: 'leak.png', contentType: 'image/png', description: 'Under the sink' });
    const refused = client.uploadAttachment(workOrder.id, new TextEncoder().encode('plain text'), {
      fileName: 'a.txt',
    });
    await expect(refused).rejects.toMatchObject({ status: 415, error: expect.stringContaining('file') });
    expect(
      (
        await client.DELETE('/v1/work-orders/{workOrderId}/attachments/{attachmentId}', {
          params: { path: { ...workOrderPath, attachmentId: photo.id } },
        })
      ).response.status,
    ).toBe(204);

    ok(
      await client.PUT('/v1/work-orders/{workOrderId}/notes/{noteId}', {
        ...notePath,
        body: { text: 'Photo and quote' },
      }),
    );
    expect(
      (await client.DELETE('/v1/work-orders/{workOrderId}/attachments/{attachmentId}', attachmentPath)).response.status,
    ).toBe(204);
    expect((await client.DELETE('/v1/work-orders/{workOrderId}/notes/{noteId}', notePath)).response.status).toBe(204);
    const history = ok(
      await client.GET('/v1/work-orders/{workOrderId}/history', { params: { path: workOrderPath } }),
    ).data;
    expect(history.map((entry) => entry.type).slice(0, 6)).toEqual([
      'note_deleted',
      'attachment_deleted',
      'note_updated',
      'attachment_deleted',
      'attachment_added',
      'attachment_added',
    ]);
    const unitHistory = ok(
      await client.GET('/v1/units/{unitId}/history', { params: { path: { unitId: unit.id } } }),
    ).data;
    expect(unitHistory.map((entry) => entry.type)).toEqual(['created']);
    // The other resources' histories: a record of none of them is a 404 the client reports as an error.
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const result of [
      await client.GET('/v1/contractors/{contractorId}/history', { params: { path: { contractorId: missing } } }),
      await client.GET('/v1/tenants/{tenantId}/history', { params: { path: { tenantId: missing } } }),
      await client.GET('/v1/landlords/{landlordId}/history', { params: { path: { landlordId: missing } } }),
    ]) {
      expect(result.response.status).toBe(404);
    }
  });

  it('reads the API root (GET /v1): the version and where the document is, with types from the document', async () => {
    const root = ok(await client.GET('/v1')).data;
    expect(root.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(root.links.openapi).toMatch(/^https?:\/\/[^/]+\/v1\/openapi\.json$/);
  });

  it('resetSandbox fills a test key’s sandbox with the sample or empties it; isTestMode tells its answers apart', async () => {
    const { teamId } = await sut.createTeam('Client test mode team');
    const testKey = await sut.app.get(ApiKeysService).createKey(teamId, 'client', { test: true });
    const live = clientWith({ apiKey: (await sut.app.get(ApiKeysService).createKey(teamId, 'client live')).apiKey });
    const test = clientWith({ apiKey: testKey.apiKey });

    const filled = await test.resetSandbox({ sampleData: true });
    expect(filled).toMatchObject({ teamId: testKey.sandboxTeamId, sampleData: true, records: SAMPLE_COUNTS });
    const units = await test.GET('/v1/units', { params: { query: { pageSize: 1 } } });
    expect(isTestMode(units)).toBe(true);
    expect(ok(units).pagination.total).toBe(SAMPLE_COUNTS.units);
    const liveUnits = await live.GET('/v1/units', { params: { query: { pageSize: 1 } } });
    expect(isTestMode(liveUnits)).toBe(false);
    expect(isTestMode(liveUnits.response)).toBe(false);
    expect(ok(liveUnits).pagination.total).toBe(0);

    const emptied = await test.resetSandbox();
    expect(emptied).toMatchObject({ teamId: testKey.sandboxTeamId, sampleData: false, records: { units: 0 } });
    expect(ok(await test.GET('/v1/units')).pagination.total).toBe(0);

    const refused = await live.resetSandbox({ sampleData: true }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PortfolioApiError);
    expect(refused).toMatchObject({ status: 403, error: expect.stringContaining('test key') });
  });

  it('has driven every operation the served document describes', async () => {
    const response = await globalThis.fetch(`${baseUrl}/v1/openapi.json`);
    const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    const described = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(described.length).toBeGreaterThanOrEqual(27);
    expect(described.filter((operation) => !exercised.has(operation))).toEqual([]);
  });
});

describe('typed client on 429', () => {
  let sut: TestApp;
  let baseUrl: string;
  let apiKey: string;
  const clock = new ManualClock();

  beforeAll(async () => {
    sut = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 3 }, clock });
    baseUrl = await serve(sut);
    checkedFetch = conformingFetch(await servedConformance(baseUrl));
    ({ apiKey } = await sut.createTeam('Limited team'));
  });
  afterAll(() => sut.close());

  it('waits Retry-After (through the injected sleep) and retries, bounded by maxWaitMs and maxAttempts', async () => {
    const statuses: number[] = [];
    const waits: number[] = [];
    const fetch: Fetch = async (request) => {
      const response = await checkedFetch(request);
      statuses.push(response.status);
      return response;
    };
    // The sleep moves the app's clock instead of the test's: the window really passes, instantly.
    const client = createPortfolioClient({
      baseUrl: `${baseUrl}/v1`,
      apiKey,
      fetch,
      sleep: async (ms) => {
        waits.push(ms);
        clock.advance(ms);
      },
    });
    for (let i = 0; i < 3; i += 1) expect((await client.GET('/v1/units')).response.status).toBe(200);

    const waited = await client.GET('/v1/units');
    expect(waited.response.status).toBe(200);
    expect(statuses).toEqual([200, 200, 200, 429, 200]);
    expect(waits).toEqual([60_000]);

    // A Retry-After beyond maxWaitMs is not waited out: the caller gets the 429 at once.
    statuses.length = 0;
    waits.length = 0;
    const impatient = createPortfolioClient({
      baseUrl,
      apiKey,
      fetch,
      retry: { maxWaitMs: 5_000 },
      sleep: async () => {},
    });
    await client.GET('/v1/units');
    await client.GET('/v1/units');
    const refused = await impatient.GET('/v1/units');
    expect(refused.response.status).toBe(429);
    expect(refused.error).toEqual({ error: 'Rate limit exceeded' });
    expect(statuses.slice(-1)).toEqual([429]);

    // A sleep that lets no time pass: maxAttempts bounds the retries (3 attempts, 2 waits).
    statuses.length = 0;
    const stuckWaits: number[] = [];
    const stuck = createPortfolioClient({
      baseUrl,
      apiKey,
      fetch,
      sleep: async (ms) => {
        stuckWaits.push(ms);
      },
    });
    const still = await stuck.GET('/v1/units');
    expect(still.response.status).toBe(429);
    expect(statuses).toEqual([429, 429, 429]);
    expect(stuckWaits).toHaveLength(2);
    expect(stuckWaits.every((ms) => ms >= 1_000 && ms <= 60_000)).toBe(true);
  });
});
