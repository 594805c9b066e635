import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../validation/transforms.js';

/**
 * `page`, `pageSize` and `search`, shared by every list endpoint. class-validator runs a property's decorators
 * bottom-up and only the first failure is reported, so the type check sits nearest the property.
 */
export class PageQuery {
  /** Page number, from 1. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @ToInteger()
  @Max(1_000_000)
  @Min(1)
  @IsInt()
  page: number = 1;

  /** Records per page. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 50, default: 20 })
  @IsOptional()
  @ToInteger()
  @Max(50)
  @Min(1)
  @IsInt()
  pageSize: number = 20;

  /** Case-insensitive substring match (`%` and `_` are literal); trimmed; empty means no filter. */
  @IsOptional()
  // eslint-disable-next-line no-control-regex -- the unit separator joins searched fields in the indexes
  @Matches(/^[^\u0000-\u001f]*$/, { message: 'search must not contain control characters' })
  @MaxLength(200)
  @IsString()
  search?: string;
}
