import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { containsPattern, TeamScopedRepository } from '@app/common';
import type { ListLandlordsQuery } from './dto/list-landlords.query.js';
import { Landlord } from './landlord.entity.js';

/** Must match the trigram index `landlords_search_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION = "(l.name || chr(31) || coalesce(l.email, '') || chr(31) || coalesce(l.phone_number, ''))";

@Injectable()
export class LandlordsRepository extends TeamScopedRepository<Landlord> {
  constructor(@InjectRepository(Landlord) repository: Repository<Landlord>) {
    super(repository, 'l');
  }

  list(teamId: string, query: ListLandlordsQuery): Promise<[Landlord[], number]> {
    return this.page(teamId, query, (qb) => {
      const pattern = containsPattern(query.search);
      if (pattern) qb.andWhere(`${SEARCH_EXPRESSION} ILIKE :pattern`, { pattern });
      if (query.status?.length) qb.andWhere('l.status IN (:...statuses)', { statuses: query.status });
    });
  }
}
