// The example note: what Swagger UI pre-fills `POST /v1/work-orders/{workOrderId}/notes` with (`body`), and the
// demo team's note of this `id` on the example work order (its path examples name both). Plain data that imports
// only another example file (see units/unit.example.ts).
import { WORK_ORDER_EXAMPLE } from '../work-order.example.js';

const body = {
  text: 'Tenant called: the drip is worse since Monday and the cupboard floor is soft. Asked for a morning visit.',
  authorName: 'Jane Doe (tenant)',
};

export const WORK_ORDER_NOTE_EXAMPLE = {
  id: '4d6f8a0c-2e4b-4c6d-9e8f-0a2c4e6a8b0d',
  workOrderId: WORK_ORDER_EXAMPLE.id,
  /** The key named in `createdBy` examples (the demo team's first key is called `default`). */
  createdBy: { type: 'api_key' as const, id: '5e7a9c1e-3b5d-4f7a-8c9e-1b3d5f7a9c1e', name: 'default' },
  body,
  ...body,
};
