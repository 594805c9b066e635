import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '@app/common';
import { getContractor } from './factories/contractors.js';
import {
  createUnit,
  createWorkOrder,
  createWorkOrderContractor,
  getWorkOrder,
  putWorkOrder,
  STATUSES,
  workOrderIn,
  type Status,
  type UnitRow,
  type WorkOrderBody,
} from './factories/work-orders.js';
import { createTestApp, type Team, type TestApp } from './support/test-app.js';
import { expectError } from './support/assertions.js';

/** The contract's transition table, written out independently of the implementation. */
const ALLOWED: Record<Status, Status[]> = {
  reported: ['in_progress', 'completed', 'cancelled'],
  in_progress: ['reported', 'completed', 'cancelled'],
  completed: ['in_progress'],
  cancelled: ['reported'],
};

const PAIRS = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));

describe('work order status', () => {
  const clock = new ManualClock(Date.UTC(2031, 4, 6, 9, 30, 15, 250));
  let sut: TestApp;
  let team: Team;
  let unit: UnitRow;

  beforeAll(async () => {
    sut = await createTestApp({ clock });
    team = await sut.createTeam();
    unit = await createUnit(sut, team);
  });
  afterAll(() => sut.close());

  async function put(id: string, body: Record<string, unknown>): Promise<WorkOrderBody> {
    const response = await putWorkOrder(sut, team, id, body);
    expect(response.status).toBe(200);
    return response.body.data as WorkOrderBody;
  }

  describe('transition table', () => {
    it('covers all 16 pairs', () => {
      expect(PAIRS).toHaveLength(16);
      expect(PAIRS.filter(([from, to]) => ALLOWED[from].includes(to))).toHaveLength(8);
    });

    it.each(PAIRS.filter(([from, to]) => ALLOWED[from].includes(to)))('allows %s → %s', async (from, to) => {
      const before = await workOrderIn(sut, team, unit.id, from);
      const after = await put(before.id, { status: to });
      expect(after.status).toBe(to);
      expect((await getWorkOrder(sut, team, before.id)).body.data.status).toBe(to);
    });

    it.each(PAIRS.filter(([from, to]) => from !== to && !ALLOWED[from].includes(to)))(
      'refuses %s → %s with 409 and changes nothing',
      async (from, to) => {
        const before = await workOrderIn(sut, team, unit.id, from, { title: 'Before' });
        const response = await putWorkOrder(sut, team, before.id, { status: to, title: 'After' });
        expect(expectError(response, 409)).toBe(`Cannot change status from ${from} to ${to}`);
        expect((await getWorkOrder(sut, team, before.id)).body.data).toEqual(before);
      },
    );

    it.each(STATUSES.map((status) => [status]))(
      'allows %s → itself without touching the status fields',
      async (status) => {
        const before = await workOrderIn(sut, team, unit.id, status);
        clock.advance(60_000);
        const after = await put(before.id, { status, title: 'Renamed' });
        expect(after).toMatchObject({
          status,
          resolvedAt: before.resolvedAt,
          selfResolved: before.selfResolved,
          title: 'Renamed',
        });
        expect(after.updatedAt > before.updatedAt).toBe(true);
      },
    );
  });

  describe('resolvedAt and selfResolved', () => {
    it('entering completed with no contractor stamps resolvedAt and marks the work order self-resolved', async () => {
      const created = await workOrderIn(sut, team, unit.id, 'in_progress');
      clock.advance(1_000);
      const completed = await put(created.id, { status: 'completed' });
      expect(completed).toMatchObject({ resolvedAt: new Date(clock.now()).toISOString(), selfResolved: true });
      expect((await getWorkOrder(sut, team, created.id)).body.data).toEqual(completed);
    });

    it('entering completed with a contractor assigned is not self-resolved', async () => {
      const contractor = await createWorkOrderContractor(sut, team);
      const created = await createWorkOrder(sut, team, unit.id, { contractorId: contractor.id });
      clock.advance(1_000);
      const completed = await put(created.id, { status: 'completed' });
      expect(completed).toMatchObject({
        resolvedAt: new Date(clock.now()).toISOString(),
        selfResolved: false,
        contractor,
      });
    });

    it('judges selfResolved by the contractor as the same PUT leaves it', async () => {
      const contractor = await createWorkOrderContractor(sut, team);
      const assignedNow = await createWorkOrder(sut, team, unit.id);
      expect(await put(assignedNow.id, { status: 'completed', contractorId: contractor.id })).toMatchObject({
        selfResolved: false,
        contractor,
      });

      const unassignedNow = await createWorkOrder(sut, team, unit.id, { contractorId: contractor.id });
      expect(await put(unassignedNow.id, { status: 'completed', contractorId: null })).toMatchObject({
        selfResolved: true,
        contractor: null,
      });
    });

    it.each([
      ['without', false],
      ['with', true],
    ])('leaving completed (%s a contractor) clears resolvedAt and selfResolved', async (_label, withContractor) => {
      const contractorId = withContractor ? (await createWorkOrderContractor(sut, team)).id : null;
      const completed = await workOrderIn(sut, team, unit.id, 'completed', { contractorId });
      expect(completed.resolvedAt).not.toBeNull();
      expect(completed.selfResolved).toBe(!withContractor);
      const reopened = await put(completed.id, { status: 'in_progress' });
      expect(reopened).toMatchObject({ status: 'in_progress', resolvedAt: null, selfResolved: false });
    });

    it('re-entering completed stamps the new time', async () => {
      const completed = await workOrderIn(sut, team, unit.id, 'completed');
      const first = completed.resolvedAt;
      await put(completed.id, { status: 'in_progress' });
      clock.advance(3_600_000);
      const again = await put(completed.id, { status: 'completed' });
      expect(again.resolvedAt).toBe(new Date(clock.now()).toISOString());
      expect(again.resolvedAt).not.toBe(first);
    });

    it('keeps resolvedAt and selfResolved when a completed work order gets a contractor later', async () => {
      const completed = await workOrderIn(sut, team, unit.id, 'completed');
      const contractor = await createWorkOrderContractor(sut, team);
      clock.advance(5_000);
      const edited = await put(completed.id, { contractorId: contractor.id, status: 'completed' });
      expect(edited).toMatchObject({ resolvedAt: completed.resolvedAt, selfResolved: true, contractor });
    });

    it('stays unresolved through moves that do not touch completed', async () => {
      const created = await createWorkOrder(sut, team, unit.id);
      for (const status of ['in_progress', 'cancelled', 'reported'] as const) {
        expect(await put(created.id, { status })).toMatchObject({ status, resolvedAt: null, selfResolved: false });
      }
    });
  });

  it("counts the work order in its contractor's completedJobs while it is completed", async () => {
    const contractor = await createWorkOrderContractor(sut, team);
    const completedJobs = async (): Promise<number> => {
      const response = await getContractor(sut, team, contractor.id);
      expect(response.status).toBe(200);
      return response.body.data.completedJobs as number;
    };
    const workOrder = await createWorkOrder(sut, team, unit.id, { contractorId: contractor.id });
    expect(await completedJobs()).toBe(0);
    await put(workOrder.id, { status: 'completed' });
    expect(await completedJobs()).toBe(1);
    await put(workOrder.id, { status: 'in_progress' });
    expect(await completedJobs()).toBe(0);

    // A completed job moves with its contractor when it is reassigned.
    await put(workOrder.id, { status: 'completed' });
    const successor = await createWorkOrderContractor(sut, team);
    await put(workOrder.id, { contractorId: successor.id });
    expect(await completedJobs()).toBe(0);
    expect((await getContractor(sut, team, successor.id)).body.data.completedJobs).toBe(1);
  });
});
