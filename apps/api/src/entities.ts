import { ApiKey, Team } from '@app/common';
import { Contractor } from './contractors/contractor.entity.js';

/** Every entity, for the migration tooling (`ormconfig.ts`); the app itself loads them per module. */
export const entities = [Team, ApiKey, Contractor];
