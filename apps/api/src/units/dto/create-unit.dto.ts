import { OptionalText, RequiredText } from '@app/common';

/** Optional parts that are empty after trimming are stored as `null`. */
export class CreateUnitDto {
  /** First line of the street address. */
  @RequiredText(260)
  addressLine1!: string;

  @OptionalText(260)
  addressLine2?: string | null;

  @RequiredText(160)
  city!: string;

  @OptionalText(160)
  county?: string | null;

  @RequiredText(160)
  country!: string;

  @RequiredText(80)
  postcode!: string;

  /** Neighbourhood or district. */
  @OptionalText(160)
  area?: string | null;
}
