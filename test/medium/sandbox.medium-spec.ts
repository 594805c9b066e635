import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKeysService, type CreatedKey } from '../../apps/api/src/api-keys/index.js';
import { SAMPLE_COUNTS, SandboxService } from '../../apps/api/src/sandbox/index.js';
import { UnitsService } from '../../apps/api/src/units/index.js';
import { WebhookEndpointsService } from '../../apps/api/src/webhooks/index.js';
import { WorkOrdersService } from '../../apps/api/src/work-orders/index.js';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// CONTRACT "Test mode (sandbox)": a team's sandbox is made once, whatever races to make it; its keys are test keys
// however they are made; a reset empties that sandbox alone, keeps its events, webhook endpoints and keys, and
// fills it with the same sample every time or not at all. Called on the services, against the real schema.

/** A team's tables that only its own writes change (the dispatcher's attempts move its webhook endpoints' rows). */
const WRITTEN_TABLES = [
  'landlords',
  'contractors',
  'units',
  'tenants',
  'tenant_units',
  'work_orders',
  'work_order_notes',
  'record_history',
  'imports',
  'events',
  'event_sequences',
  'api_keys',
];
/** Every table of a team a reset empties or keeps. */
const TEAM_TABLES = [...WRITTEN_TABLES, 'webhook_endpoints'];

describe(SandboxService.name, () => {
  let app: MediumApp;
  let sut: SandboxService;
  let keys: ApiKeysService;

  beforeAll(async () => {
    app = await createMediumApp();
    sut = app.get(SandboxService);
    keys = app.get(ApiKeysService);
  });
  afterAll(() => app.close());

  const authorOf = (key: CreatedKey) => ({ type: 'api_key' as const, id: key.apiKeyId, name: 'medium' });

  /** Each of `WRITTEN_TABLES` as one md5 of the team's rows (as text): any change to any row shows. */
  async function rowsOf(teamId: string): Promise<Record<string, string>> {
    const columns = WRITTEN_TABLES.map(
      (table) =>
        `(SELECT coalesce(md5(string_agg(to_jsonb(t)::text, '' ORDER BY to_jsonb(t)::text)), '') FROM ${table} t
           WHERE t.team_id = $1) AS ${table}`,
    );
    const [row] = await app.sql<Record<string, string>>(`SELECT ${columns.join(', ')}`, [teamId]);
    return row;
  }

  /** How many rows the team has in each table. */
  async function countsOf(teamId: string): Promise<Record<string, number>> {
    const columns = TEAM_TABLES.map((table) => `(SELECT count(*)::int FROM ${table} WHERE team_id = $1) AS ${table}`);
    const [row] = await app.sql<Record<string, number>>(`SELECT ${columns.join(', ')}`, [teamId]);
    return row;
  }

  /**
   * The sandbox's sample as content: every record without its id, times or work order code (a team's work order
   * numbers go on from where they were), links named by external reference.
   */
  async function sampleContent(teamId: string): Promise<unknown> {
    const [row] = await app.sql(
      `SELECT
         (SELECT array_agg(l.external_ref || ' ' || l.name ORDER BY l.external_ref) FROM landlords l
           WHERE l.team_id = $1) AS landlords,
         (SELECT array_agg(c.external_ref || ' ' || c.company_name || ' ' || c.status ORDER BY c.external_ref)
            FROM contractors c WHERE c.team_id = $1) AS contractors,
         (SELECT array_agg(u.external_ref || ' ' || u.full_address ORDER BY u.external_ref) FROM units u
           WHERE u.team_id = $1) AS units,
         (SELECT array_agg(t.external_ref || ' ' || t.first_name || ' ' || t.last_name || ' ' || coalesce(t.email, '')
                 ORDER BY t.external_ref) FROM tenants t WHERE t.team_id = $1) AS tenants,
         (SELECT array_agg(w.external_ref || ' ' || w.title || ' ' || w.status || ' ' || w.priority
                 || ' ' || u.external_ref ORDER BY w.external_ref)
            FROM work_orders w JOIN units u ON u.team_id = w.team_id AND u.id = w.unit_id
           WHERE w.team_id = $1) AS work_orders,
         (SELECT array_agg(w.external_ref || ' ' || n.text ORDER BY w.external_ref, n.text)
            FROM work_order_notes n JOIN work_orders w ON w.team_id = n.team_id AND w.id = n.work_order_id
           WHERE n.team_id = $1) AS notes`,
      [teamId],
    );
    return row;
  }

  it('makes one sandbox for a team when two test keys are asked for at once', async () => {
    const live = await app.createTeam('Racing team');
    const [first, second] = await Promise.all([
      keys.createKey(live, 'first', { test: true }),
      keys.createKey(live, 'second', { test: true }),
    ]);
    expect(first.sandboxTeamId).toBeDefined();
    expect(second.sandboxTeamId).toBe(first.sandboxTeamId);
    const sandboxes = await app.sql('SELECT id FROM teams WHERE live_team_id = $1', [live]);
    expect(sandboxes).toEqual([{ id: first.sandboxTeamId }]);
    expect(await keys.listKeys(first.sandboxTeamId as string)).toHaveLength(2);
    expect(await keys.listKeys(live)).toHaveLength(1);
  });

  it('makes a test key when given the sandbox’s own id, naming the live team', async () => {
    const live = await app.createTeam('Sandbox id team');
    const sandboxTeamId = await keys.sandboxOf(live);
    const key = await keys.createKey(sandboxTeamId, 'by sandbox id');
    expect(key.apiKey).toMatch(/^ppk_test_[0-9A-Za-z]{32,}$/);
    expect({ teamId: key.teamId, sandboxTeamId: key.sandboxTeamId }).toEqual({ teamId: live, sandboxTeamId });
    expect(await keys.authenticate(key.apiKey)).toMatchObject({ teamId: sandboxTeamId, testMode: true });
  });

  it('rolls a test key into a test key of the same sandbox', async () => {
    const live = await app.createTeam('Rolling team');
    const key = await keys.createKey(live, 'to roll', { test: true });
    const rolled = await keys.roll(key.sandboxTeamId as string, key.apiKeyId, 0);
    expect(rolled.apiKey).toMatch(/^ppk_test_[0-9A-Za-z]{32,}$/);
    expect(await keys.authenticate(rolled.apiKey)).toMatchObject({ teamId: key.sandboxTeamId, testMode: true });
    expect(await keys.authenticate(key.apiKey)).toBeUndefined();
  });

  describe('reset', () => {
    let live: string;
    let key: CreatedKey;
    let sandbox: string;
    let otherLive: string;
    let otherSandbox: string;

    beforeAll(async () => {
      live = await app.createTeam('Resetting team');
      key = await keys.createKey(live, 'reset', { test: true });
      sandbox = key.sandboxTeamId as string;
      otherLive = await app.createTeam('Bystander team');
      const otherKey = await keys.createKey(otherLive, 'bystander', { test: true });
      otherSandbox = otherKey.sandboxTeamId as string;
      for (const teamId of [live, otherLive]) {
        const unit = await app
          .get(UnitsService)
          .create(teamId, { addressLine1: '1 Live Street', city: 'Bristol', postcode: 'BS1 1AA', country: 'UK' });
        await app.get(WorkOrdersService).create(teamId, { title: 'Live repair', unitId: unit.id });
      }
      await sut.resetTeam(otherSandbox, authorOf(otherKey), true);
    });

    it('fills the sandbox with the sample portfolio, the same content on every reset', async () => {
      const first = await sut.resetTeam(sandbox, authorOf(key), true);
      expect(first.records).toMatchObject(SAMPLE_COUNTS);
      const content = await sampleContent(sandbox);
      const second = await sut.resetTeam(sandbox, authorOf(key), true);
      expect(second.records).toEqual(first.records);
      expect(await sampleContent(sandbox)).toEqual(content);
      expect(content).toMatchObject({ units: expect.arrayContaining([expect.any(String)]) });
      expect((content as { work_orders: string[] }).work_orders).toHaveLength(SAMPLE_COUNTS.workOrders);
      // Another sandbox filled the same way holds the same sample.
      expect(await sampleContent(otherSandbox)).toEqual(content);
    });

    it('empties only the sandbox: its records, notes, history and imports go; events, endpoints and keys stay', async () => {
      await sut.resetTeam(sandbox, authorOf(key), true);
      await app.get(WebhookEndpointsService).create(sandbox, { url: 'https://example.com/hooks', types: null });
      const before = await countsOf(sandbox);
      const untouched = await Promise.all([live, otherLive, otherSandbox].map(rowsOf));

      const answer = await sut.resetTeam(sandbox, authorOf(key), false);

      expect(answer).toMatchObject({ teamId: sandbox, sampleData: false, records: { units: 0, workOrders: 0 } });
      expect(await countsOf(sandbox)).toEqual({
        landlords: 0,
        contractors: 0,
        units: 0,
        tenants: 0,
        tenant_units: 0,
        work_orders: 0,
        work_order_notes: 0,
        record_history: 0,
        imports: 0,
        events: before.events,
        event_sequences: 1,
        webhook_endpoints: 1,
        api_keys: before.api_keys,
      });
      expect(before).toMatchObject({ units: SAMPLE_COUNTS.units, work_order_notes: expect.any(Number) });
      expect(before.events).toBeGreaterThan(SAMPLE_COUNTS.workOrders);
      expect(await Promise.all([live, otherLive, otherSandbox].map(rowsOf))).toEqual(untouched);
    });

    it('writes all of the sample or nothing: a write that fails half-way leaves the sandbox as it was', async () => {
      await sut.resetTeam(sandbox, authorOf(key), true);
      const content = await sampleContent(sandbox);
      const before = await rowsOf(sandbox);
      // An event already holding the sequence number the sample's tenth write will take: that write breaks the
      // events' primary key (team_id, seq) after the sandbox was emptied and nine records were written again.
      await app.sql(
        `INSERT INTO events (team_id, seq, id, type, created_at, body)
         SELECT team_id, last_seq + 10, 'evt_planted', 'unit.created', now(), '{}' FROM event_sequences
          WHERE team_id = $1`,
        [sandbox],
      );

      await expect(sut.resetTeam(sandbox, authorOf(key), true)).rejects.toThrow(/duplicate key/);

      await app.sql(`DELETE FROM events WHERE team_id = $1 AND id = 'evt_planted'`, [sandbox]);
      expect(await rowsOf(sandbox)).toEqual(before);
      expect(await sampleContent(sandbox)).toEqual(content);
      // Without the planted event the same reset goes through.
      expect((await sut.resetTeam(sandbox, authorOf(key), true)).records).toMatchObject(SAMPLE_COUNTS);
    });
  });
});
