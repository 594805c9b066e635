import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsEmail, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { EmptyToNull, IsOmittable } from '@app/common';

// class-validator runs a property's rules bottom-up and the pipe reports only the first failure, so the type
// check comes last: a missing or mistyped value is reported as such, not as "too long".

/** Optional fields that are empty after trimming are stored as `null`. */
export class CreateTenantDto {
  @MaxLength(160)
  @IsNotEmpty()
  @IsString()
  firstName!: string;

  @MaxLength(160)
  @IsNotEmpty()
  @IsString()
  lastName!: string;

  @IsOptional()
  @EmptyToNull()
  @MaxLength(254)
  @IsEmail()
  email?: string | null;

  @IsOptional()
  @EmptyToNull()
  @MaxLength(160)
  @IsString()
  phoneNumber?: string | null;

  @IsOptional()
  @EmptyToNull()
  @MaxLength(10_000)
  @IsString()
  notes?: string | null;

  /**
   * Units of the team to link the tenant to; on update, replaces all the tenant's links (links to units that
   * stay keep their id). Duplicates count once. Input only: the links are returned as `tenantUnits`.
   */
  @ApiPropertyOptional({ type: [String], maxItems: 100, items: { type: 'string', format: 'uuid' } })
  // Not nullable: `[]` removes every link.
  @IsOmittable()
  @IsUUID('all', { each: true })
  @ArrayMaxSize(100)
  @IsArray()
  unitIds?: string[];
}
