import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { containsPattern, FilterBuilder, isoTimestamp, TeamScopedRepository } from '@app/common';
import { Contractor } from './contractor.entity.js';
import type { ContractorRow } from './contractor.row.js';
import type { ListContractorsQuery } from './dto/list-contractors.query.js';

/** Must match the trigram index `contractors_search_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION =
  "(c.company_name || chr(31) || c.contact_name || chr(31) || coalesce(c.email, '') || chr(31) || coalesce(c.phone_number, ''))";

@Injectable()
export class ContractorsRepository extends TeamScopedRepository<Contractor, ContractorRow> {
  constructor(@InjectRepository(Contractor) repository: Repository<Contractor>) {
    super(repository, 'c', {
      table: 'contractors',
      record: 'contractor',
      columns: `c.id, c.team_id AS "teamId", c.external_ref AS "externalRef", c.company_name AS "companyName", c.contact_name AS "contactName",
        c.email, c.phone_number AS "phoneNumber", c.full_address AS "fullAddress", c.status, c.trades,
        c.coverage_postcodes AS "coveragePostcodes", c.certifications, c.insurance, c.notes,
        (SELECT count(*)::int FROM work_orders w
          WHERE w.team_id = c.team_id AND w.contractor_id = c.id AND w.status = 'completed') AS "completedJobs",
        ${isoTimestamp('c.created_at')} AS "createdAt", ${isoTimestamp('c.updated_at')} AS "updatedAt"`,
    });
  }

  list(teamId: string, query: ListContractorsQuery): Promise<[ContractorRow[], number]> {
    const filter = new FilterBuilder();
    const pattern = containsPattern(query.search);
    if (pattern) filter.and(`${SEARCH_EXPRESSION} ILIKE ${filter.bind(pattern)}`);
    if (query.status?.length) filter.and(`c.status = ANY (${filter.bind(query.status)})`);
    if (query.trade) {
      filter.and(
        `EXISTS (SELECT 1 FROM unnest(c.trades) AS trade WHERE lower(trade) = lower(${filter.bind(query.trade)}))`,
      );
    }
    if (query.postcode) {
      filter.and(`EXISTS (SELECT 1 FROM unnest(c.coverage_postcodes) AS covered
        WHERE starts_with(upper(replace(${filter.bind(query.postcode)}, ' ', '')), upper(replace(covered, ' ', ''))))`);
    }
    return this.pageRows(teamId, query, filter.build());
  }
}
