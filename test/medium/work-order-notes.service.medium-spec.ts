import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UnitsService } from '../../apps/api/src/units/units.service.js';
import {
  NOTES_PER_WORK_ORDER,
  WorkOrderNotesService,
} from '../../apps/api/src/work-orders/notes/work-order-notes.service.js';
import { WorkOrdersService } from '../../apps/api/src/work-orders/work-orders.service.js';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// The notes' rules on the service (CONTRACT "Notes on work orders"): the 1,000-notes limit, also under concurrent
// writes, the scoping to the work order and the team, and the cascade when a work order is deleted.

describe(WorkOrderNotesService.name, () => {
  let app: MediumApp;
  let sut: WorkOrderNotesService;
  let teamId: string;
  const author = { type: 'api_key' as const, id: randomUUID(), name: 'Front desk' };

  beforeAll(async () => {
    app = await createMediumApp();
    sut = app.get(WorkOrderNotesService);
    teamId = await app.createTeam();
  });
  afterAll(() => app.close());

  const newWorkOrder = async (team = teamId) => {
    const unit = await app
      .get(UnitsService)
      .create(team, { addressLine1: '2 Mill Lane', city: 'Leeds', postcode: 'LS1 4AP', country: 'UK' });
    return app.get(WorkOrdersService).create(team, { title: 'Leaking tap', unitId: unit.id });
  };
  /** Plants `count` notes on the work order straight in the database. */
  const plantNotes = (workOrderId: string, count: number) =>
    app.sql(
      `INSERT INTO work_order_notes (team_id, work_order_id, text, created_by)
       SELECT $1, $2, 'note ' || n, $3 FROM generate_series(1, $4) n`,
      [teamId, workOrderId, JSON.stringify(author), count],
    );
  const countNotes = async (workOrderId: string) =>
    (
      await app.sql<{ count: number }>(
        'SELECT count(*)::int AS count FROM work_order_notes WHERE team_id = $1 AND work_order_id = $2',
        [teamId, workOrderId],
      )
    )[0].count;

  it('writes a note with its author and no attachments', async () => {
    const workOrder = await newWorkOrder();
    const note = await sut.create(teamId, workOrder.id, { text: 'Tenant called', authorName: null }, author);
    expect(note).toMatchObject({
      workOrderId: workOrder.id,
      text: 'Tenant called',
      createdBy: author,
      attachmentIds: [],
    });
  });

  it(`refuses the note after the ${NOTES_PER_WORK_ORDER}th with a conflict, and writes nothing`, async () => {
    const workOrder = await newWorkOrder();
    await plantNotes(workOrder.id, NOTES_PER_WORK_ORDER - 1);
    await sut.create(teamId, workOrder.id, { text: 'the last one' }, author);
    await expect(sut.create(teamId, workOrder.id, { text: 'one too many' }, author)).rejects.toMatchObject({
      kind: 'conflict',
    });
    expect(await countNotes(workOrder.id)).toBe(NOTES_PER_WORK_ORDER);
  });

  it('lets only one of several notes written at once take the last place', async () => {
    const workOrder = await newWorkOrder();
    await plantNotes(workOrder.id, NOTES_PER_WORK_ORDER - 1);
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) => sut.create(teamId, workOrder.id, { text: `racer ${i}` }, author)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(await countNotes(workOrder.id)).toBe(NOTES_PER_WORK_ORDER);
  });

  it('deletes a work order’s notes with it', async () => {
    const workOrder = await newWorkOrder();
    await sut.create(teamId, workOrder.id, { text: 'to go with it' }, author);
    await app.get(WorkOrdersService).remove(teamId, workOrder.id);
    expect(await countNotes(workOrder.id)).toBe(0);
  });

  it('finds no note through another work order or another team', async () => {
    const workOrder = await newWorkOrder();
    const other = await newWorkOrder();
    const note = await sut.create(teamId, workOrder.id, { text: 'mine' }, author);
    await expect(sut.get(teamId, note.id, other.id)).rejects.toMatchObject({ message: 'Note not found' });
    const otherTeam = await app.createTeam('Other team');
    await expect(sut.get(otherTeam, note.id, workOrder.id)).rejects.toMatchObject({
      message: 'Work order not found',
    });
    await expect(sut.remove(teamId, other.id, note.id)).rejects.toMatchObject({ message: 'Note not found' });
    expect((await sut.get(teamId, note.id, workOrder.id)).text).toBe('mine');
  });

  it('lists a conversation in the order it was written, even within one millisecond', async () => {
    const workOrder = await newWorkOrder();
    const written = [];
    for (let i = 0; i < 5; i++) written.push((await sut.create(teamId, workOrder.id, { text: `${i}` }, author)).id);
    const page = await sut.list(teamId, workOrder.id, { page: 1, pageSize: 20, sort: 'createdAt' });
    expect(page.data.map((note) => note.id)).toEqual(written);
  });
});
