import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { runInTransaction } from '@app/common';
import {
  IDEMPOTENCY_RETENTION_MS,
  IdempotencyStore,
  type StoredAnswer,
} from '../../libs/common/src/safe-writes/idempotency.store.js';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// CONTRACT "Safe retries": one request at a time per team and key (the second sees 409), the stored answer
// replayed for 24 hours, keys per team. The store holds these rules in PostgreSQL; here it is called directly.

const ANSWER: StoredAnswer = {
  method: 'POST',
  path: '/v1/units',
  fingerprint: 'f'.repeat(64),
  status: 201,
  body: '{"data":{}}',
  entityTag: '"tag"',
};

describe(IdempotencyStore.name, () => {
  let app: MediumApp;
  let sut: IdempotencyStore;
  let db: DataSource;
  let teamId: string;

  beforeAll(async () => {
    app = await createMediumApp();
    sut = app.get(IdempotencyStore);
    db = app.get(DataSource);
    teamId = await app.createTeam();
  });
  afterAll(() => app.close());

  it('lets one transaction hold a key: another is refused until it commits, another team is not', async () => {
    const otherTeam = await app.createTeam('Other');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let claimed!: () => void;
    const ready = new Promise<void>((resolve) => (claimed = resolve));
    const holder = runInTransaction(db, async (manager) => {
      expect(await sut.claim(manager, teamId, 'held-key')).toBe(true);
      claimed();
      await held;
    });
    await ready;
    expect(await runInTransaction(db, (manager) => sut.claim(manager, teamId, 'held-key'))).toBe(false);
    expect(await runInTransaction(db, (manager) => sut.claim(manager, otherTeam, 'held-key'))).toBe(true);
    expect(await runInTransaction(db, (manager) => sut.claim(manager, teamId, 'another-key'))).toBe(true);
    release();
    await holder;
    expect(await runInTransaction(db, (manager) => sut.claim(manager, teamId, 'held-key'))).toBe(true);
  });

  it('finds a stored answer stored after notBefore, for its own team only', async () => {
    const otherTeam = await app.createTeam('Other');
    const at = new Date(Date.UTC(2030, 0, 1, 12));
    await runInTransaction(db, (manager) => sut.save(manager, teamId, 'stored-key', ANSWER, at));
    const find = (team: string, notBefore: Date) =>
      runInTransaction(db, (manager) => sut.find(manager, team, 'stored-key', notBefore));
    expect(await find(teamId, new Date(at.getTime() - IDEMPOTENCY_RETENTION_MS))).toEqual(ANSWER);
    expect(await find(teamId, at)).toBeUndefined();
    expect(await find(otherTeam, new Date(0))).toBeUndefined();
  });

  it('replaces an expired answer with a new one under the same key', async () => {
    const first = new Date(Date.UTC(2030, 0, 1));
    const later = new Date(first.getTime() + IDEMPOTENCY_RETENTION_MS + 1);
    const replacement = { ...ANSWER, method: 'PUT', status: 200 };
    await runInTransaction(db, (manager) => sut.save(manager, teamId, 'reused-key', ANSWER, first));
    await runInTransaction(db, (manager) => sut.save(manager, teamId, 'reused-key', replacement, later));
    const found = await runInTransaction(db, (manager) => sut.find(manager, teamId, 'reused-key', first));
    expect(found).toEqual(replacement);
  });

  it('deletes the answers stored before a time, of every team, and keeps the later ones', async () => {
    const otherTeam = await app.createTeam('Other');
    const old = new Date(Date.UTC(2029, 0, 1));
    const recent = new Date(Date.UTC(2029, 0, 3));
    await runInTransaction(db, async (manager) => {
      await sut.save(manager, teamId, 'old-key', ANSWER, old);
      await sut.save(manager, otherTeam, 'old-key', ANSWER, old);
      await sut.save(manager, teamId, 'recent-key', ANSWER, recent);
    });
    expect(await sut.deleteStoredBefore(new Date(Date.UTC(2029, 0, 2)))).toBe(2);
    const keys = await app.sql<{ key: string }>(
      `SELECT key FROM idempotency_keys WHERE key IN ('old-key', 'recent-key') ORDER BY key`,
    );
    expect(keys).toEqual([{ key: 'recent-key' }]);
  });
});
