import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { containsPattern, TeamScopedRepository } from '@app/common';
import { Contractor } from './contractor.entity.js';
import type { ListContractorsQuery } from './dto/list-contractors.query.js';

/** Must match the trigram index `contractors_search_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION =
  "(c.company_name || chr(31) || c.contact_name || chr(31) || coalesce(c.email, '') || chr(31) || coalesce(c.phone_number, ''))";

@Injectable()
export class ContractorsRepository extends TeamScopedRepository<Contractor> {
  constructor(@InjectRepository(Contractor) repository: Repository<Contractor>) {
    super(repository, 'c');
  }

  list(teamId: string, query: ListContractorsQuery): Promise<[Contractor[], number]> {
    return this.page(teamId, query, (qb) => {
      const pattern = containsPattern(query.search);
      if (pattern) qb.andWhere(`${SEARCH_EXPRESSION} ILIKE :pattern`, { pattern });
      if (query.status?.length) qb.andWhere('c.status IN (:...statuses)', { statuses: query.status });
      if (query.trade) {
        qb.andWhere('EXISTS (SELECT 1 FROM unnest(c.trades) AS trade WHERE lower(trade) = lower(:trade))', {
          trade: query.trade,
        });
      }
      if (query.postcode) {
        qb.andWhere(
          `EXISTS (SELECT 1 FROM unnest(c.coverage_postcodes) AS covered
             WHERE starts_with(upper(replace(:postcode, ' ', '')), upper(replace(covered, ' ', ''))))`,
          { postcode: query.postcode },
        );
      }
    });
  }
}
