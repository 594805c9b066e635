import { InitialSchema1763750000000 } from './1763750000000-initial-schema.js';

/** Every migration, in order. New migrations are appended here (ESM has no glob loading). */
export const migrations = [InitialSchema1763750000000];
