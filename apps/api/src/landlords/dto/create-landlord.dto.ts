import { OneOf, OptionalEmail, OptionalText, RequiredText, ExternalRef } from '@app/common';
import { LANDLORD_STATUSES, type LandlordStatus } from '../landlord.entity.js';
import { LANDLORD_EXAMPLE } from '../landlord.example.js';

const landlord = LANDLORD_EXAMPLE;

export class CreateLandlordDto {
  /** The landlord's name, a person or a company. */
  @RequiredText(260, { example: landlord.name })
  name!: string;

  @OptionalEmail({ example: landlord.email })
  email?: string | null;

  @OptionalText(160, { example: landlord.phoneNumber })
  phoneNumber?: string | null;

  /** Correspondence address, free text. */
  @OptionalText(560, { example: landlord.fullAddress })
  fullAddress?: string | null;

  @OneOf(LANDLORD_STATUSES, 'LandlordStatus', { fallback: 'active', example: 'active' })
  status?: LandlordStatus;

  @OptionalText(10_000, { example: landlord.notes })
  notes?: string | null;

  @ExternalRef()
  externalRef?: string | null;
}
