import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';

// Lookups by primary key and the team's change version run as named statements, prepared once per pooled
// connection (NamedStatements). A migration that changes such a statement's result columns while an instance runs
// makes PostgreSQL refuse the prepared statement ("cached plan must not change result type"); the instance must
// prepare it again and answer, not fail.

jest.setTimeout(60_000);

const UNIT = { addressLine1: '2 Prepared Place', city: 'York', country: 'United Kingdom', postcode: 'YO1 7HH' };
/** More concurrent requests than the pool has connections, so every connection prepares the statement. */
const CONCURRENT = 24;

describe('prepared statements', () => {
  let t: TestApp;
  let team: Team;
  let workOrderId: string;

  beforeAll(async () => {
    t = await createTestApp();
    team = await t.createTeam();
    const unit = await t
      .http()
      .post('/v1/units')
      .set(...bearer(team))
      .send(UNIT);
    expect(unit.status).toBe(201);
    const workOrder = await t
      .http()
      .post('/v1/work-orders')
      .set(...bearer(team))
      .send({ title: 'Dripping tap', description: 'In the kitchen', unitId: unit.body.data.id });
    expect(workOrder.status).toBe(201);
    workOrderId = workOrder.body.data.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const getMany = async (): Promise<{ status: number; description: unknown }[]> => {
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT }, () =>
        t
          .http()
          .get(`/v1/work-orders/${workOrderId}`)
          .set(...bearer(team)),
      ),
    );
    return responses.map((response) => ({ status: response.status, description: response.body.data?.description }));
  };

  it('answers concurrent lookups by id over several pooled connections', async () => {
    const answers = await getMany();
    expect(answers.every((answer) => answer.status === 200 && answer.description === 'In the kitchen')).toBe(true);
    const [{ n }] = await t.unannouncedSql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'property-portfolio-api'`,
    );
    expect(n).toBeGreaterThan(1);
  });

  it('answers after a migration changed the prepared lookup’s result columns', async () => {
    // text → varchar changes the column's type in the statement's result: every prepared copy is now refused.
    await t.unannouncedSql('ALTER TABLE work_orders ALTER COLUMN description TYPE varchar(4000)');
    const answers = await getMany();
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(answers.every((answer) => answer.description === 'In the kitchen')).toBe(true);
    // And again, on statements prepared after the change.
    expect((await getMany()).every((answer) => answer.status === 200)).toBe(true);
  });

  it('inside a transaction answers 503 to retry, never 500, and prepares the statement again for the next request', async () => {
    const putMany = async (priority: string) =>
      Promise.all(
        Array.from({ length: CONCURRENT }, () =>
          t
            .http()
            .put(`/v1/work-orders/${workOrderId}`)
            .set(...bearer(team))
            .send({ priority }),
        ),
      );
    expect((await putMany('1')).every((response) => response.status === 200)).toBe(true);
    // An update locks and reads the work order in its transaction with a prepared statement of its own.
    await t.unannouncedSql('ALTER TABLE work_orders ALTER COLUMN description TYPE text');
    const answers = await putMany('3');
    // Every pooled connection ran the first round, so the first update of this round meets a refused statement.
    expect(answers.some((response) => response.status === 503)).toBe(true);
    for (const response of answers) {
      if (response.status !== 200) {
        expect(response.status).toBe(503);
        expect(response.body).toEqual({ error: 'The database schema changed during the request; retry it' });
      }
    }
    const retried = await putMany('3');
    expect(retried.map((response) => response.status)).toEqual(retried.map(() => 200));
    expect(retried[0].body.data.priority).toBe('3');
  });
});
