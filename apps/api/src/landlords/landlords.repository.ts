import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { containsPattern, FilterBuilder, isoTimestamp, TeamScopedRepository } from '@app/common';
import type { ListLandlordsQuery } from './dto/list-landlords.query.js';
import { Landlord } from './landlord.entity.js';
import type { LandlordRow } from './landlord.row.js';

/** Must match the trigram index `landlords_search_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION = "(l.name || chr(31) || coalesce(l.email, '') || chr(31) || coalesce(l.phone_number, ''))";

@Injectable()
export class LandlordsRepository extends TeamScopedRepository<Landlord, LandlordRow> {
  constructor(@InjectRepository(Landlord) repository: Repository<Landlord>) {
    super(repository, 'l', {
      table: 'landlords',
      record: 'landlord',
      columns: `l.id, l.team_id AS "teamId", l.external_ref AS "externalRef", l.name, l.email, l.phone_number AS "phoneNumber",
        l.full_address AS "fullAddress", l.status, l.notes,
        ${isoTimestamp('l.created_at')} AS "createdAt", ${isoTimestamp('l.updated_at')} AS "updatedAt"`,
    });
  }

  list(teamId: string, query: ListLandlordsQuery): Promise<[LandlordRow[], number]> {
    const filter = new FilterBuilder();
    const pattern = containsPattern(query.search);
    if (pattern) filter.and(`${SEARCH_EXPRESSION} ILIKE ${filter.bind(pattern)}`);
    if (query.status?.length) filter.and(`l.status = ANY (${filter.bind(query.status)})`);
    return this.pageRows(teamId, query, filter.build());
  }
}
