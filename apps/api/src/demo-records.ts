import type { INestApplicationContext } from '@nestjs/common';
import { createValidationPipe, EventsStore, Transactions, type EventType } from '@app/common';
import { historySubjectsOf } from './history/index.js';
import { RESOURCES } from './resources.js';

/**
 * Gives a team every registered resource's example record under its documented example id, in registration
 * order (so a work order's unit exists first): with the demo team's key, Swagger UI's "Try it out" works as
 * pre-filled — `POST /v1/work-orders` names the example unit, `GET /v1/units/{unitId}` its id. Each example is
 * validated and transformed as a request's body would be, and created as a request would create it: with its
 * `.created` event and its history's `created` entry, in one transaction, made by the service itself (actor
 * `system`). Returns the ids created.
 */
export async function createDemoRecords(app: INestApplicationContext, teamId: string): Promise<string[]> {
  const pipe = createValidationPipe();
  const subjects = historySubjectsOf(RESOURCES.map((resource) => resource.module));
  const transactions = app.get(Transactions, { strict: false });
  const events = app.get(EventsStore, { strict: false });
  const created: string[] = [];
  for (const { example } of RESOURCES) {
    if (!example) continue;
    const body = (await pipe.transform(structuredClone(example.record.body), {
      type: 'body',
      metatype: example.create,
    })) as object;
    const service = app.get(example.service, { strict: false });
    const subject = subjects.find((candidate) => (candidate.resource.source as unknown) === example.service);
    await transactions.run(async (manager) => {
      const record = await service.create(teamId, body, example.record.id);
      if (subject && record && typeof record === 'object') {
        const type: EventType = `${subject.record}.created`;
        await events.record(manager, teamId, type, record, undefined, { actor: { type: 'system' } });
      }
    });
    created.push(example.record.id);
  }
  return created;
}
