import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource, type EntityManager } from 'typeorm';
import { runInTransaction, teamStatement } from '@app/common';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// A transaction on the pool's pipelined connections (docs/performance.md, "Round trips per write"): its BEGIN goes
// out with its first statement, and a last statement that `commits` takes the COMMIT with it, each pair in one round
// trip, and neither gives up what a transaction promises: all of it or none of it.

/** The transaction's `pg` client, watched: what it sent and what was answered, in order, and its notices. */
interface Watched {
  log: string[];
  notices: string[];
  status(): string | null;
}

function watch(manager: EntityManager): Watched {
  const client = (manager.queryRunner as unknown as { databaseConnection: PgClient }).databaseConnection;
  const log: string[] = [];
  const notices: string[] = [];
  const query = client.query.bind(client);
  client.query = (config, ...rest) => {
    const text = typeof config === 'string' ? config : config.text;
    const name = text.split(' ')[0];
    log.push(`sent ${name}`);
    const answer = query(config, ...rest);
    answer.then(
      () => log.push(`answered ${name}`),
      () => log.push(`failed ${name}`),
    );
    return answer;
  };
  client.on('notice', (notice: { message: string }) => notices.push(notice.message));
  return { log, notices, status: () => client.getTransactionStatus() };
}

interface PgClient {
  query(config: string | { text: string }, ...rest: unknown[]): Promise<unknown>;
  on(event: 'notice', listener: (notice: { message: string }) => void): void;
  getTransactionStatus(): string | null;
}

describe('pipelined transactions', () => {
  let app: MediumApp;
  let db: DataSource;
  let teamId: string;

  beforeAll(async () => {
    app = await createMediumApp();
    db = app.get(DataSource);
    teamId = await app.createTeam();
    await app.sql('CREATE TABLE pipeline_probe (team_id uuid NOT NULL, id integer PRIMARY KEY)');
  });
  afterAll(() => app.close());

  const why = 'a probe table of this spec, with $1 in every row';
  const insert = (manager: EntityManager, id: number, commits = false) =>
    teamStatement(manager, teamId, 'INSERT INTO pipeline_probe (team_id, id) VALUES ($1, $2)', [id], {
      why,
      prepared: true,
      commits,
    });
  const probeIds = async () =>
    (await app.sql<{ id: number }>('SELECT id FROM pipeline_probe ORDER BY id')).map((row) => row.id);

  it('sends the first statement before the BEGIN is answered, and runs it inside the transaction', async () => {
    let statusAtStart: string | null = null;
    let statusAfterFirst: string | null = null;
    const failure = new Error('the work failed after its first statement');
    await expect(
      runInTransaction(db, async (manager) => {
        const watched = watch(manager);
        // Nothing was awaited since the BEGIN was written: PostgreSQL's answer to it has not been read.
        statusAtStart = watched.status();
        await insert(manager, 1);
        statusAfterFirst = watched.status();
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(statusAtStart).toBe('I');
    expect(statusAfterFirst).toBe('T');
    // Rolled back with the transaction: the statement ran inside it.
    expect(await probeIds()).not.toContain(1);
  });

  it('sends the COMMIT behind the last statement before either is answered, and commits once', async () => {
    let watched: Watched | undefined;
    let activeAfter: boolean | undefined;
    const answer = await runInTransaction(db, async (manager) => {
      watched = watch(manager);
      await insert(manager, 2);
      await insert(manager, 3, true);
      activeAfter = manager.queryRunner?.isTransactionActive;
      return 'done';
    });
    expect(answer).toBe('done');
    expect(watched?.log).toEqual([
      'sent INSERT',
      'answered INSERT',
      'sent INSERT',
      'sent COMMIT',
      'answered INSERT',
      'answered COMMIT',
    ]);
    expect(activeAfter).toBe(false);
    expect(watched?.status()).toBe('I');
    // No second COMMIT ("there is no transaction in progress").
    expect(watched?.notices).toEqual([]);
    expect(await probeIds()).toEqual(expect.arrayContaining([2, 3]));
  });

  it('keeps nothing when the last statement fails, and reports its failure', async () => {
    let watched: Watched | undefined;
    await expect(
      runInTransaction(db, async (manager) => {
        watched = watch(manager);
        await insert(manager, 4);
        // Id 2 exists: a unique violation in the statement that carries the COMMIT.
        await insert(manager, 2, true);
      }),
    ).rejects.toMatchObject({ driverError: { code: '23505', table: 'pipeline_probe' } });
    expect(watched?.log).toEqual([
      'sent INSERT',
      'answered INSERT',
      'sent INSERT',
      'sent COMMIT',
      'failed INSERT',
      'answered COMMIT',
    ]);
    expect(watched?.status()).toBe('I');
    expect(watched?.notices).toEqual([]);
    expect(await probeIds()).not.toContain(4);
  });

  it('keeps nothing when the last statement cannot even be sent (a value pg fails to encode)', async () => {
    let watched: Watched | undefined;
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(
      runInTransaction(db, async (manager) => {
        watched = watch(manager);
        await insert(manager, 6);
        // pg serialises an object itself, in the client: this one throws before anything is written for it.
        await teamStatement(
          manager,
          teamId,
          'INSERT INTO pipeline_probe (team_id, id) SELECT $1, 7 WHERE $2::jsonb IS NOT NULL',
          [cyclic],
          {
            why,
            prepared: true,
            commits: true,
          },
        );
      }),
    ).rejects.toThrow(/circular/i);
    // No COMMIT went out behind it: the transaction rolled back.
    expect(watched?.log).not.toContain('sent COMMIT');
    expect(await probeIds()).not.toContain(6);
  });

  it('leaves the COMMIT to the transaction when a savepoint is open', async () => {
    let sentInSavepoint: string[] = [];
    let activeAfter: boolean | undefined;
    await runInTransaction(db, async (manager) => {
      const watched = watch(manager);
      await manager.queryRunner?.startTransaction();
      await insert(manager, 5, true);
      sentInSavepoint = [...watched.log];
      activeAfter = manager.queryRunner?.isTransactionActive;
      await manager.queryRunner?.commitTransaction();
    });
    expect(sentInSavepoint).toEqual(['sent SAVEPOINT', 'answered SAVEPOINT', 'sent INSERT', 'answered INSERT']);
    expect(activeAfter).toBe(true);
    expect(await probeIds()).toContain(5);
  });
});
