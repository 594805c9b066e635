import type { LandlordStatus } from './landlord.entity.js';

/** A landlord as the repository reads it (timestamps already in the API's text form). */
export interface LandlordRow {
  id: string;
  teamId: string;
  externalRef: string | null;
  name: string;
  email: string | null;
  phoneNumber: string | null;
  fullAddress: string | null;
  status: LandlordStatus;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
}
