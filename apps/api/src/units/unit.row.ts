import type { LinkedTenantRow } from '../tenancies/index.js';

/** A unit as the repository reads it, with its tenant links oldest first (timestamps in the API's text form). */
export interface UnitRow {
  id: string;
  teamId: string;
  externalRef: string | null;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  county: string | null;
  country: string;
  postcode: string;
  area: string | null;
  fullAddress: string;
  links: LinkedTenantRow[];
  createdAt: string;
  updatedAt: string;
}
