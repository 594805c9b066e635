import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../validation/transforms.js';

/** `page`, `pageSize` and `search`, shared by every list endpoint. */
export class PageQuery {
  /** Page number, from 1. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page: number = 1;

  /** Records per page. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 50, default: 20 })
  @IsOptional()
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(50)
  pageSize: number = 20;

  /** Case-insensitive substring match (`%` and `_` are literal); trimmed; empty means no filter. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  // eslint-disable-next-line no-control-regex -- the unit separator joins searched fields in the indexes
  @Matches(/^[^\u0000-\u001f]*$/, { message: 'search must not contain control characters' })
  search?: string;
}
