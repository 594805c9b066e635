import type { INestApplicationContext } from '@nestjs/common';
import { createValidationPipe } from '@app/common';
import { RESOURCES } from './resources.js';

/**
 * Gives a team every registered resource's example record under its documented example id, in registration
 * order (so a work order's unit exists first): with the demo team's key, Swagger UI's "Try it out" works as
 * pre-filled — `POST /v1/work-orders` names the example unit, `GET /v1/units/{unitId}` its id. Each example is
 * validated and transformed as a request's body would be. Returns the ids created.
 */
export async function createDemoRecords(app: INestApplicationContext, teamId: string): Promise<string[]> {
  const pipe = createValidationPipe();
  const created: string[] = [];
  for (const { example } of RESOURCES) {
    if (!example) continue;
    const body = (await pipe.transform(structuredClone(example.record.body), {
      type: 'body',
      metatype: example.create,
    })) as object;
    await app.get(example.service, { strict: false }).create(teamId, body, example.record.id);
    created.push(example.record.id);
  }
  return created;
}
