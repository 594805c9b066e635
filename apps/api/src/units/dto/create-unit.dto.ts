import { OptionalText, RequiredText, ExternalRef } from '@app/common';
import { UNIT_EXAMPLE } from '../unit.example.js';

const unit = UNIT_EXAMPLE;

/** Optional parts that are empty after trimming are stored as `null`. */
export class CreateUnitDto {
  /** First line of the street address. */
  @RequiredText(260, { example: unit.addressLine1 })
  addressLine1!: string;

  @OptionalText(260, { example: unit.addressLine2 })
  addressLine2?: string | null;

  @RequiredText(160, { example: unit.city })
  city!: string;

  @OptionalText(160, { example: unit.county })
  county?: string | null;

  @RequiredText(160, { example: unit.country })
  country!: string;

  @RequiredText(80, { example: unit.postcode })
  postcode!: string;

  /** Neighbourhood or district. */
  @OptionalText(160, { example: unit.area })
  area?: string | null;

  @ExternalRef()
  externalRef?: string | null;
}
