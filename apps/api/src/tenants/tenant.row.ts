import type { LinkedUnitRow } from '../tenancies/index.js';

/** A tenant as the repository reads it, with its unit links oldest first (timestamps in the API's text form). */
export interface TenantRow {
  id: string;
  teamId: string;
  externalRef: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phoneNumber: string | null;
  notes: string | null;
  links: LinkedUnitRow[];
  createdAt: string;
  updatedAt: string;
}
