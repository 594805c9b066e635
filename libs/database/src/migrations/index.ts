import { InitialSchema1763750000000 } from './1763750000000-initial-schema.js';
import { WorkOrderCounts1763800000000 } from './1763800000000-work-order-counts.js';
import { ApiKeyRevocationNotify1763850000000 } from './1763850000000-api-key-revocation-notify.js';

/** Every migration, in order. New migrations are appended here (ESM has no glob loading). */
export const migrations = [
  InitialSchema1763750000000,
  WorkOrderCounts1763800000000,
  ApiKeyRevocationNotify1763850000000,
];
