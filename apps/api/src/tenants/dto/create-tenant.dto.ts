import { IdList, OptionalEmail, OptionalText, RequiredText, ExternalRef } from '@app/common';
import { TENANT_EXAMPLE } from '../tenant.example.js';

const tenant = TENANT_EXAMPLE;

/** Optional fields that are empty after trimming are stored as `null`. */
export class CreateTenantDto {
  @RequiredText(160, { example: tenant.firstName })
  firstName!: string;

  @RequiredText(160, { example: tenant.lastName })
  lastName!: string;

  @OptionalEmail({ example: tenant.email })
  email?: string | null;

  @OptionalText(160, { example: tenant.phoneNumber })
  phoneNumber?: string | null;

  @OptionalText(10_000, { example: tenant.notes })
  notes?: string | null;

  /**
   * Ids of the team's units to link the tenant to: create a unit with `POST /v1/units` (or find one with
   * `GET /v1/units`) and put its `id` here. On update, replaces all the tenant's links (links to units that stay
   * keep their id). Duplicates count once. Input only: the links are returned as `tenantUnits`. Not nullable:
   * `[]` removes every link.
   */
  @IdList(100, { example: [] })
  unitIds?: string[];

  @ExternalRef()
  externalRef?: string | null;
}
