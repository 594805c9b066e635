import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createValidationPipe } from '@app/common';
import { RESOURCES, type ResourceExample } from '../../apps/api/src/resources.js';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// CONTRACT "External references": `externalRef` is unique per team and resource. Checked on the services of every
// registered resource with its example record (which carries an externalRef, as the demo team's records do): the
// database's unique index decides, so the rule holds for every write path of the service, and the refusal is a
// conflict naming the value.

/** What the medium test calls on a resource's service (every resource's service has these). */
interface RecordWrites {
  create(teamId: string, body: object, id?: string): Promise<{ id: string; externalRef: string | null }>;
  update(teamId: string, id: string, body: object): Promise<{ externalRef: string | null }>;
  get(teamId: string, id: string): Promise<{ externalRef: string | null; updatedAt: string }>;
}

const EXAMPLES = RESOURCES.flatMap((resource) => resource.example ?? []).map((example) => ({
  name: example.create.name.replace(/^Create|Dto$/g, ''),
  example,
  ref: (example.record.body as { externalRef?: string }).externalRef,
}));

describe('externalRef uniqueness (services)', () => {
  let app: MediumApp;
  let teamId: string;
  let otherTeamId: string;

  const pipe = createValidationPipe();
  /** A body as the API would hand it to the service: validated and transformed. */
  const bodyOf = async (example: ResourceExample, changes: object = {}): Promise<object> =>
    (await pipe.transform(
      { ...structuredClone(example.record.body), ...changes },
      { type: 'body', metatype: example.create },
    )) as object;
  const service = (example: ResourceExample): RecordWrites => app.get(example.service) as unknown as RecordWrites;
  const conflict = (ref: string) => ({
    kind: 'conflict',
    message: expect.stringMatching(
      new RegExp(`^externalRef "${ref}" is already used by another [a-z ]+ of this team$`),
    ),
  });

  beforeAll(async () => {
    app = await createMediumApp();
    teamId = await app.createTeam('Reference team');
    otherTeamId = await app.createTeam('Other team');
    // Both teams get every example record (in registration order: a work order's unit first), refs and all.
    for (const team of [teamId, otherTeamId]) {
      for (const { example } of EXAMPLES) await service(example).create(team, await bodyOf(example), example.record.id);
    }
  });
  afterAll(() => app.close());

  it('covers every resource with an example record, each carrying an externalRef', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(5);
    for (const { name, ref } of EXAMPLES) expect({ name, ref }).toEqual({ name, ref: expect.any(String) });
  });

  it.each(EXAMPLES)('$name: the same externalRef in another team is its own', async ({ example, ref }) => {
    expect((await service(example).get(otherTeamId, example.record.id)).externalRef).toBe(ref);
    expect((await service(example).get(teamId, example.record.id)).externalRef).toBe(ref);
  });

  it.each(EXAMPLES)('$name: create refuses the example’s externalRef', async ({ example, ref }) => {
    await expect(service(example).create(teamId, await bodyOf(example))).rejects.toMatchObject(conflict(ref!));
  });

  it.each(EXAMPLES)(
    '$name: update refuses another record’s externalRef and leaves the record as it was',
    async ({ example, ref }) => {
      const second = await service(example).create(teamId, await bodyOf(example, { externalRef: `${ref}-second` }));
      const before = await service(example).get(teamId, second.id);
      await expect(service(example).update(teamId, second.id, { externalRef: ref })).rejects.toMatchObject(
        conflict(ref!),
      );
      expect(await service(example).get(teamId, second.id)).toEqual(before);
      // Its own value again is no conflict.
      const same = await service(example).update(teamId, example.record.id, { externalRef: ref });
      expect(same.externalRef).toBe(ref);
    },
  );
});
