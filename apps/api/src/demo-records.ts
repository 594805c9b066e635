import type { INestApplicationContext, Type } from '@nestjs/common';
import { createValidationPipe, eventRecordOf, Transactions, type Actor, type EventContext } from '@app/common';
import { FIRST_KEY_NAME, type CreatedKey } from './api-keys/index.js';
import { EventsStore } from './events/index.js';
import { announcerOf, RESOURCES } from './resources.js';

/**
 * Gives a team every registered resource's example record under its documented example id, in registration
 * order (so a work order's unit exists first), and then the examples that live under those records (the example
 * work order's note, written by the team's first key): with the demo team's key, Swagger UI's "Try it out" works
 * as pre-filled — `POST /v1/work-orders` names the example unit, `GET /v1/units/{unitId}` its id. Each example is
 * validated and transformed as a request's body would be, and created as a request would create it: with its
 * `.created` event and its history entry, in one transaction (a record by the service itself, actor `system`; the
 * note by the key that `createdBy` names). Returns the ids created.
 */
export async function createDemoRecords(
  app: INestApplicationContext,
  demo: Pick<CreatedKey, 'teamId' | 'apiKeyId'>,
): Promise<string[]> {
  const pipe = createValidationPipe();
  const asRequestBody = async (body: object, metatype: Type): Promise<object> =>
    (await pipe.transform(structuredClone(body), { type: 'body', metatype })) as object;
  const transactions = app.get(Transactions, { strict: false });
  const events = app.get(EventsStore, { strict: false });
  const { teamId } = demo;
  /** Creates a record and announces it (in its parent's history too, for a nested one), as one transaction. */
  const announced = (service: Type, create: () => Promise<unknown>, actor: Actor, parentId?: string): Promise<void> =>
    transactions.run(async (manager) => {
      const record = await create();
      const resource = announcerOf(service);
      if (!resource || !record || typeof record !== 'object') return;
      const context: EventContext = { actor };
      if (resource.parent && parentId) context.parent = { record: eventRecordOf(resource.parent), id: parentId };
      await events.record(manager, teamId, `${eventRecordOf(resource)}.created`, record, undefined, context);
    });
  const system: Actor = { type: 'system' };
  const author: Actor = { type: 'api_key', id: demo.apiKeyId, name: FIRST_KEY_NAME };
  const created: string[] = [];
  for (const { example } of RESOURCES) {
    if (!example) continue;
    const body = await asRequestBody(example.record.body, example.create);
    const service = app.get(example.service, { strict: false });
    await announced(example.service, () => service.create(teamId, body, example.record.id), system);
    created.push(example.record.id);
  }
  for (const nested of RESOURCES.flatMap((resource) => resource.nestedExamples ?? [])) {
    const body = await asRequestBody(nested.record.body, nested.create);
    const service = app.get(nested.service, { strict: false });
    const create = () => service.create(teamId, nested.parentId, body, author, nested.record.id);
    await announced(nested.announcedBy ?? nested.service, create, author, nested.parentId);
    created.push(nested.record.id);
  }
  return created;
}
