import { OneOf, OptionalEmail, OptionalText, RequiredText } from '@app/common';
import { LANDLORD_STATUSES, type LandlordStatus } from '../landlord.entity.js';

export class CreateLandlordDto {
  /** The landlord's name, a person or a company. */
  @RequiredText(260)
  name!: string;

  @OptionalEmail()
  email?: string | null;

  @OptionalText(160)
  phoneNumber?: string | null;

  /** Correspondence address, free text. */
  @OptionalText(560)
  fullAddress?: string | null;

  @OneOf(LANDLORD_STATUSES, 'LandlordStatus', { fallback: 'active' })
  status?: LandlordStatus;

  @OptionalText(10_000)
  notes?: string | null;
}
