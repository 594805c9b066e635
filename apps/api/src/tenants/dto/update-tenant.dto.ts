import { PartialType } from '@nestjs/swagger';
import { CreateTenantDto } from './create-tenant.dto.js';

/** Partial update: omitted fields keep their value, `null` clears a nullable one, `unitIds` replaces all links. */
export class UpdateTenantDto extends PartialType(CreateTenantDto, { skipNullProperties: false }) {}
