import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Transactions, type Actor } from '@app/common';
import { EventsStore } from '../../apps/api/src/events/index.js';
import { LandlordsService } from '../../apps/api/src/landlords/landlords.service.js';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// The history's write path (CONTRACT "History of every record"): the entry is written by the statement that
// records the change's event, in the change's transaction, so a rolled-back change leaves neither.

const KEY: Actor = { type: 'api_key', id: '5d1c8a2e-4b3f-4e6a-9c7d-2f1e0a9b8c7d', name: 'Front desk' };

describe(EventsStore.name, () => {
  let app: MediumApp;
  let sut: EventsStore;
  let teamId: string;

  beforeAll(async () => {
    app = await createMediumApp();
    sut = app.get(EventsStore);
    teamId = await app.createTeam();
  });
  afterAll(() => app.close());

  const rowsOf = (id: string) =>
    app.sql<{ seq: string; id: string; type: string; actor: Actor }>(
      'SELECT seq, id, type, actor FROM record_history WHERE team_id = $1 AND record_id = $2 ORDER BY seq',
      [teamId, id],
    );
  /** Creates a landlord and records its event in one transaction, as a POST does; `fail` rolls it back. */
  const createAnnounced = (name: string, fail = false) =>
    app.get(Transactions).run(async (manager) => {
      const landlord = await app.get(LandlordsService).create(teamId, { name });
      const eventId = await sut.record(manager, teamId, 'landlord.created', landlord, undefined, { actor: KEY });
      if (fail) throw new Error('rolled back');
      return { landlord, eventId };
    });

  it('writes the entry under the event’s id and number, with its actor', async () => {
    const { landlord, eventId } = await createAnnounced('Committed');
    const [event] = await app.sql<{ seq: string }>('SELECT seq FROM events WHERE team_id = $1 AND id = $2', [
      teamId,
      eventId,
    ]);
    expect(await rowsOf(landlord.id)).toEqual([{ seq: event.seq, id: eventId, type: 'created', actor: KEY }]);
  });

  it('leaves no entry, as no event and no record, when the change’s transaction rolls back', async () => {
    const before = await app.sql<{ count: number }>('SELECT count(*)::int AS count FROM record_history');
    await expect(createAnnounced('Rolled back', true)).rejects.toThrow('rolled back');
    const [after] = await app.sql<{ count: number }>('SELECT count(*)::int AS count FROM record_history');
    expect(after.count).toBe(before[0].count);
    expect(await app.sql("SELECT 1 FROM landlords WHERE team_id = $1 AND name = 'Rolled back'", [teamId])).toEqual([]);
  });

  it('keeps the history when a delete’s transaction rolls back, and removes it when one commits', async () => {
    const { landlord } = await createAnnounced('Deleted twice');
    const remove = (fail: boolean) =>
      app.get(Transactions).run(async (manager) => {
        await sut.record(manager, teamId, 'landlord.deleted', { id: landlord.id }, undefined, { actor: KEY });
        if (fail) throw new Error('rolled back');
      });
    await expect(remove(true)).rejects.toThrow('rolled back');
    expect(await rowsOf(landlord.id)).toHaveLength(1);
    await remove(false);
    expect(await rowsOf(landlord.id)).toEqual([]);
  });
});
