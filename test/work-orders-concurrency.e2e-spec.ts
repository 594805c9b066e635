import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiKeysService } from '../apps/api/src/api-keys/index.js';
import {
  createUnit,
  createWorkOrder,
  lastNumber,
  postWorkOrder,
  putWorkOrder,
  workOrderIn,
  workOrderInput,
  type WorkOrderBody,
} from './factories/work-orders.js';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';

const codes = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `WO-${from + i}`);
const byNumber = (a: string, b: string): number => Number(a.slice(3)) - Number(b.slice(3));

describe('work orders under concurrency', () => {
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp();
  });
  afterAll(() => sut.close());

  /** A team with `keys` API keys. */
  async function teamWithKeys(keys: number): Promise<Team[]> {
    const first = await sut.createTeam();
    const more = await Promise.all(
      Array.from({ length: keys - 1 }, (_, i) => sut.app.get(ApiKeysService).createKey(first.teamId, `key ${i + 2}`)),
    );
    return [first, ...more];
  }

  it('gives 50 concurrent creates over five keys of one team exactly WO-1 … WO-50', async () => {
    const keys = await teamWithKeys(5);
    const unit = await createUnit(sut, keys[0]);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postWorkOrder(sut, keys[i % keys.length], workOrderInput(unit.id))),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(201));
    const created = responses.map((response) => (response.body.data as WorkOrderBody).code);
    expect(created.sort(byNumber)).toEqual(codes(1, 50));
    expect(await lastNumber(sut, keys[0].teamId)).toBe(50);
    expect((await createWorkOrder(sut, keys[2], unit.id)).code).toBe('WO-51');
  });

  it('keeps codes gap-free when rejected creates are interleaved with good ones, and teams apart', async () => {
    const [teamA] = await teamWithKeys(1);
    const [teamB] = await teamWithKeys(1);
    const [unitA, unitB] = [await createUnit(sut, teamA), await createUnit(sut, teamB)];
    const requests = Array.from({ length: 40 }, (_, i) => {
      const [team, unitId] = i % 2 === 0 ? [teamA, unitA.id] : [teamB, unitB.id];
      // Every fourth request names a unit that does not exist (or belongs to the other team).
      const badUnit = i % 8 === 3 ? randomUUID() : i % 8 === 7 ? (team === teamA ? unitB.id : unitA.id) : undefined;
      return postWorkOrder(sut, team, workOrderInput(badUnit ?? unitId));
    });
    const responses = await Promise.all(requests);
    const ofTeam = (teamId: string): string[] =>
      responses
        .filter((response) => response.status === 201 && response.body.data.teamId === teamId)
        .map((response) => response.body.data.code as string)
        .sort(byNumber);
    expect(responses.filter((response) => response.status === 400)).toHaveLength(10);
    expect(ofTeam(teamA.teamId)).toEqual(codes(1, 20));
    expect(ofTeam(teamB.teamId)).toEqual(codes(1, 10));
    expect([await lastNumber(sut, teamA.teamId), await lastNumber(sut, teamB.teamId)]).toEqual([20, 10]);
  });

  it('applies concurrent PUTs one after another: only the first completion stamps resolvedAt', async () => {
    const [team] = await teamWithKeys(1);
    const unit = await createUnit(sut, team);
    const workOrder = await workOrderIn(sut, team, unit.id, 'in_progress');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => putWorkOrder(sut, team, workOrder.id, { status: 'completed' })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const stamps = new Set(responses.map((response) => response.body.data.resolvedAt as string));
    expect(stamps.size).toBe(1);
  });

  it('lets exactly one of two conflicting moves win', async () => {
    const [team] = await teamWithKeys(1);
    const unit = await createUnit(sut, team);
    for (let round = 0; round < 5; round += 1) {
      // From reported both moves are allowed, but neither is allowed after the other.
      const workOrder = await createWorkOrder(sut, team, unit.id);
      const responses = await Promise.all([
        putWorkOrder(sut, team, workOrder.id, { status: 'completed' }),
        putWorkOrder(sut, team, workOrder.id, { status: 'cancelled' }),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const winner = responses.find((response) => response.status === 200)?.body.data as WorkOrderBody;
      const [stored] = await sut.sql<{ status: string }>('SELECT status FROM work_orders WHERE id = $1', [
        workOrder.id,
      ]);
      expect(stored.status).toBe(winner.status);
    }
  });
});
