import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CommaList, PageQuery } from '@app/common';
import { LANDLORD_STATUSES, type LandlordStatus } from '../landlord.entity.js';

/** `search` covers name, email and phone number. */
export class ListLandlordsQuery extends PageQuery {
  /** One status or a comma-separated list (`active,inactive`). */
  @ApiPropertyOptional({
    enum: LANDLORD_STATUSES,
    enumName: 'LandlordStatus',
    isArray: true,
    maxItems: LANDLORD_STATUSES.length,
  })
  @IsOptional()
  @CommaList()
  @IsIn(LANDLORD_STATUSES, { each: true })
  status?: LandlordStatus[];
}
