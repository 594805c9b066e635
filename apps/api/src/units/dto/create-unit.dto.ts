import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { EmptyToNull } from '@app/common';

// class-validator runs a property's rules bottom-up and the pipe reports only the first failure, so the type
// check comes last: a missing or mistyped part is reported as such, not as "too long".

/** Optional parts that are empty after trimming are stored as `null`. */
export class CreateUnitDto {
  /** First line of the street address. */
  @MaxLength(260)
  @IsNotEmpty()
  @IsString()
  addressLine1!: string;

  @IsOptional()
  @EmptyToNull()
  @MaxLength(260)
  @IsString()
  addressLine2?: string | null;

  @MaxLength(160)
  @IsNotEmpty()
  @IsString()
  city!: string;

  @IsOptional()
  @EmptyToNull()
  @MaxLength(160)
  @IsString()
  county?: string | null;

  @MaxLength(160)
  @IsNotEmpty()
  @IsString()
  country!: string;

  @MaxLength(80)
  @IsNotEmpty()
  @IsString()
  postcode!: string;

  /** Neighbourhood or district. */
  @IsOptional()
  @EmptyToNull()
  @MaxLength(160)
  @IsString()
  area?: string | null;
}
