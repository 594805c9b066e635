import type { INestApplicationContext } from '@nestjs/common';
import type { Actor } from '@app/common';
import { AnnouncedWrites } from './announced-writes.js';
import { FIRST_KEY_NAME, type CreatedKey } from './api-keys/index.js';
import { RESOURCES } from './resources.js';

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
  const writes = new AnnouncedWrites(app, demo.teamId);
  const system: Actor = { type: 'system' };
  const author: Actor = { type: 'api_key', id: demo.apiKeyId, name: FIRST_KEY_NAME };
  const created: string[] = [];
  for (const { example } of RESOURCES) {
    if (!example) continue;
    const body = await writes.anyBody(example.record.body, example.create);
    const service = writes.service(example.service);
    await writes.created(example.service, () => service.create(demo.teamId, body, example.record.id), system);
    created.push(example.record.id);
  }
  for (const nested of RESOURCES.flatMap((resource) => resource.nestedExamples ?? [])) {
    const body = await writes.anyBody(nested.record.body, nested.create);
    const service = writes.service(nested.service);
    const create = () => service.create(demo.teamId, nested.parentId, body, author, nested.record.id);
    await writes.created(nested.announcedBy ?? nested.service, create, author, nested.parentId);
    created.push(nested.record.id);
  }
  return created;
}
