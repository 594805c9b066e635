import { IdList, OptionalEmail, OptionalText, RequiredText } from '@app/common';

/** Optional fields that are empty after trimming are stored as `null`. */
export class CreateTenantDto {
  @RequiredText(160)
  firstName!: string;

  @RequiredText(160)
  lastName!: string;

  @OptionalEmail()
  email?: string | null;

  @OptionalText(160)
  phoneNumber?: string | null;

  @OptionalText(10_000)
  notes?: string | null;

  /**
   * Units of the team to link the tenant to; on update, replaces all the tenant's links (links to units that
   * stay keep their id). Duplicates count once. Input only: the links are returned as `tenantUnits`. Not
   * nullable: `[]` removes every link.
   */
  @IdList(100)
  unitIds?: string[];
}
