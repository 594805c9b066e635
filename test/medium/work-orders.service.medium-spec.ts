import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Transactions } from '@app/common';
import { ContractorsService } from '../../apps/api/src/contractors/contractors.service.js';
import { TenantsService } from '../../apps/api/src/tenants/tenants.service.js';
import { UnitsService } from '../../apps/api/src/units/units.service.js';
import { STATUS_MOVES } from '../../apps/api/src/work-orders/work-order-status.js';
import type { WorkOrderStatus } from '../../apps/api/src/work-orders/work-order.entity.js';
import { WorkOrdersRepository } from '../../apps/api/src/work-orders/work-orders.repository.js';
import { WorkOrdersService } from '../../apps/api/src/work-orders/work-orders.service.js';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// The work order rules (CONTRACT "Work order"), called on the service as the controller calls it after
// validation: the status machine, links to the team's records, and codes. HTTP concerns (status codes, error
// bodies, validation) stay in the e2e specs.

const STATUSES: WorkOrderStatus[] = ['reported', 'in_progress', 'completed', 'cancelled'];
const PAIRS = STATUSES.flatMap((from) => STATUSES.map((to): [WorkOrderStatus, WorkOrderStatus] => [from, to]));

describe(WorkOrdersService.name, () => {
  let app: MediumApp;
  let sut: WorkOrdersService;
  let teamId: string;

  beforeAll(async () => {
    app = await createMediumApp();
    sut = app.get(WorkOrdersService);
    teamId = await app.createTeam();
  });
  afterAll(() => app.close());

  const newUnit = (team: string) =>
    app
      .get(UnitsService)
      .create(team, { addressLine1: '2 Mill Lane', city: 'Leeds', postcode: 'LS1 4AP', country: 'UK' });
  const newContractor = (team: string) =>
    app.get(ContractorsService).create(team, { companyName: 'Brightwater Plumbing', contactName: 'Sam Reed' });
  const newWorkOrder = async (team = teamId, fields: { contractorId?: string } = {}) =>
    sut.create(team, { title: 'Leaking tap', unitId: (await newUnit(team)).id, ...fields });
  /** A new work order in `status`, reached from `reported` in one allowed move. */
  const workOrderIn = async (status: WorkOrderStatus) => {
    const workOrder = await newWorkOrder();
    return status === 'reported' ? workOrder : sut.update(teamId, workOrder.id, { status });
  };

  describe('status moves', () => {
    it.each(PAIRS.filter(([from, to]) => STATUS_MOVES[from].includes(to)))('allows %s → %s', async (from, to) => {
      const workOrder = await workOrderIn(from);
      expect((await sut.update(teamId, workOrder.id, { status: to })).status).toBe(to);
    });

    it.each(PAIRS.filter(([from, to]) => from !== to && !STATUS_MOVES[from].includes(to)))(
      'refuses %s → %s with a conflict naming both, and changes nothing',
      async (from, to) => {
        const workOrder = await workOrderIn(from);
        await expect(sut.update(teamId, workOrder.id, { status: to, title: 'Changed' })).rejects.toMatchObject({
          kind: 'conflict',
          message: `Cannot change status from ${from} to ${to}`,
        });
        expect(await sut.get(teamId, workOrder.id)).toEqual(workOrder);
      },
    );

    it.each(STATUSES)('setting %s again changes no status field, even later', async (status) => {
      const workOrder = await workOrderIn(status);
      app.clock.advance(60_000);
      const again = await sut.update(teamId, workOrder.id, { status });
      expect(again).toMatchObject({
        status,
        resolvedAt: workOrder.resolvedAt,
        selfResolved: workOrder.selfResolved,
      });
    });
  });

  describe('resolvedAt and selfResolved', () => {
    it('entering completed stamps resolvedAt with the clock and, with no contractor, marks it self-resolved', async () => {
      const workOrder = await newWorkOrder();
      app.clock.set(Date.UTC(2031, 4, 6, 7, 8, 9, 123));
      const completed = await sut.update(teamId, workOrder.id, { status: 'completed' });
      expect(completed).toMatchObject({ resolvedAt: '2031-05-06T07:08:09.123Z', selfResolved: true });
    });

    it('judges selfResolved by the contractor as the same update leaves it', async () => {
      const contractor = await newContractor(teamId);
      const assigned = await newWorkOrder(teamId, { contractorId: contractor.id });
      expect((await sut.update(teamId, assigned.id, { status: 'completed' })).selfResolved).toBe(false);
      const unassigned = await newWorkOrder(teamId, { contractorId: contractor.id });
      const done = await sut.update(teamId, unassigned.id, { status: 'completed', contractorId: null });
      expect(done.selfResolved).toBe(true);
      const fresh = await newWorkOrder();
      const withContractor = await sut.update(teamId, fresh.id, { status: 'completed', contractorId: contractor.id });
      expect(withContractor.selfResolved).toBe(false);
    });

    it('leaving completed clears resolvedAt and selfResolved', async () => {
      const completed = await workOrderIn('completed');
      expect(completed.resolvedAt).not.toBeNull();
      const reopened = await sut.update(teamId, completed.id, { status: 'in_progress' });
      expect(reopened).toMatchObject({ status: 'in_progress', resolvedAt: null, selfResolved: false });
    });
  });

  describe('an update after the record was locked and read in its transaction (a PUT)', () => {
    it('decides on the state it locked, without reading the row again, and applies the move', async () => {
      const workOrder = await workOrderIn('in_progress');
      const reads = jest.spyOn(app.get(WorkOrdersRepository), 'findState');
      try {
        const [before, after] = await app.get(Transactions).run(async () => {
          const locked = await sut.getLocked(teamId, workOrder.id);
          return [locked, await sut.update(teamId, workOrder.id.toUpperCase(), { status: 'completed' })];
        });
        expect(before?.status).toBe('in_progress');
        expect(after).toMatchObject({ status: 'completed', resolvedAt: new Date(app.clock.now()).toISOString() });
        expect(reads).not.toHaveBeenCalled();
        // Outside such a transaction the update reads the state itself, and its rules still hold.
        await expect(sut.update(teamId, workOrder.id, { status: 'reported' })).rejects.toMatchObject({
          kind: 'conflict',
          message: 'Cannot change status from completed to reported',
        });
        expect(reads).toHaveBeenCalledTimes(1);
      } finally {
        reads.mockRestore();
      }
    });

    it('uses a locked state once: a second update in the same transaction reads the row as the first left it', async () => {
      const workOrder = await newWorkOrder();
      const reads = jest.spyOn(app.get(WorkOrdersRepository), 'findState');
      try {
        const second = await app.get(Transactions).run(async () => {
          await sut.getLocked(teamId, workOrder.id);
          await sut.update(teamId, workOrder.id, { status: 'in_progress' });
          return sut.update(teamId, workOrder.id, { status: 'completed' });
        });
        expect(second.status).toBe('completed');
        expect(reads).toHaveBeenCalledTimes(1);
      } finally {
        reads.mockRestore();
      }
    });
  });

  describe('links and codes', () => {
    it.each([
      ['unitId', 'unit'],
      ['tenantId', 'tenant'],
      ['contractorId', 'contractor'],
    ])("refuses a %s of another team's record, creating nothing and consuming no code", async (field) => {
      const team = await app.createTeam('Links');
      const other = await app.createTeam('Other');
      const unit = await newUnit(team);
      const foreign: Record<string, string> = {
        unitId: (await newUnit(other)).id,
        tenantId: (await app.get(TenantsService).create(other, { firstName: 'Priya', lastName: 'Shah' })).id,
        contractorId: (await newContractor(other)).id,
      };
      const body = { title: 'Linked', unitId: unit.id, [field]: foreign[field] };
      await expect(sut.create(team, body)).rejects.toMatchObject({
        kind: 'invalid_reference',
        message: `${field} must reference an existing ${field.replace('Id', '')}`,
      });
      expect(await app.sql('SELECT id FROM work_orders WHERE team_id = $1', [team])).toEqual([]);
      expect((await sut.create(team, { title: 'Next', unitId: unit.id })).code).toBe('WO-1');
    });

    it("never gives a deleted work order's code again", async () => {
      const team = await app.createTeam('Codes');
      const first = await newWorkOrder(team);
      const second = await newWorkOrder(team);
      await sut.remove(team, second.id);
      await sut.remove(team, first.id);
      expect([first.code, second.code, (await newWorkOrder(team)).code]).toEqual(['WO-1', 'WO-2', 'WO-3']);
    });
  });
});
