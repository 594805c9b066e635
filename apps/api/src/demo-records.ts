import type { INestApplicationContext, Type } from '@nestjs/common';
import { createValidationPipe, FIRST_KEY_NAME, type CreatedKey } from '@app/common';
import { RESOURCES } from './resources.js';

/**
 * Gives a team every registered resource's example record under its documented example id, in registration
 * order (so a work order's unit exists first), and then the examples that live under those records (the example
 * work order's note, written by the team's first key): with the demo team's key, Swagger UI's "Try it out" works
 * as pre-filled — `POST /v1/work-orders` names the example unit, `GET /v1/units/{unitId}` its id. Each example is
 * validated and transformed as a request's body would be. Returns the ids created.
 */
export async function createDemoRecords(
  app: INestApplicationContext,
  demo: Pick<CreatedKey, 'teamId' | 'apiKeyId'>,
): Promise<string[]> {
  const pipe = createValidationPipe();
  const asRequestBody = async (body: object, metatype: Type): Promise<object> =>
    (await pipe.transform(structuredClone(body), { type: 'body', metatype })) as object;
  const { teamId } = demo;
  const author = { type: 'api_key' as const, id: demo.apiKeyId, name: FIRST_KEY_NAME };
  const created: string[] = [];
  for (const { example } of RESOURCES) {
    if (!example) continue;
    const body = await asRequestBody(example.record.body, example.create);
    await app.get(example.service, { strict: false }).create(teamId, body, example.record.id);
    created.push(example.record.id);
  }
  for (const nested of RESOURCES.flatMap((resource) => resource.nestedExamples ?? [])) {
    const body = await asRequestBody(nested.record.body, nested.create);
    await app.get(nested.service, { strict: false }).create(teamId, nested.parentId, body, author, nested.record.id);
    created.push(nested.record.id);
  }
  return created;
}
