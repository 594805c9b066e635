import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { CommaList, PageQuery } from '@app/common';
import { CONTRACTOR_STATUSES, type ContractorStatus } from '../contractor.entity.js';

/** `search` covers company name, contact name, email and phone number. */
export class ListContractorsQuery extends PageQuery {
  /** One status or a comma-separated list (`active,on_holiday`). */
  @ApiPropertyOptional({
    enum: CONTRACTOR_STATUSES,
    enumName: 'ContractorStatus',
    isArray: true,
    maxItems: CONTRACTOR_STATUSES.length,
  })
  @IsOptional()
  @CommaList()
  @IsIn(CONTRACTOR_STATUSES, { each: true })
  status?: ContractorStatus[];

  /** Contractors with this trade (case-insensitive, whole value). */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  trade?: string;

  /** Contractors covering this postcode: one of their coverage postcodes is a prefix of it (case and spaces ignored). */
  @IsOptional()
  @IsString()
  @MaxLength(80)
  postcode?: string;
}
