// The example work order: what Swagger UI pre-fills `POST /v1/work-orders` with (`body`), and the demo team's
// work order of this `id`. Its `unitId` is the example unit's, which the demo team holds: try-it-out works as
// pre-filled there; any other team replaces it with one of its units. The sample answers agree with each other:
// the work order is at the example unit, reported by the example tenant, assigned to the example contractor.
// Plain data that imports only another example file (see units/unit.example.ts).
import { UNIT_EXAMPLE } from '../units/unit.example.js';

const body = {
  externalRef: 'JOB-9043',
  title: 'Leaking tap in kitchen',
  description:
    'The cold tap on the kitchen sink drips constantly, even when turned off fully; water is collecting in the cupboard underneath.',
  unitId: UNIT_EXAMPLE.id,
  tenantId: null,
  contractorId: null,
  availability: 'Weekdays after 2 pm; Saturday mornings',
  priority: '1' as const,
};

export const WORK_ORDER_EXAMPLE = { id: '9b1d3f5a-7c9e-4b2d-8f4a-6c8e0a2b4d6f', code: 'WO-42', body, ...body };
