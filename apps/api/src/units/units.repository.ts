import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { containsPattern, FilterBuilder, isoTimestamp, TeamScopedRepository } from '@app/common';
import { tenantsOfUnitSql } from '../tenancies/index.js';
import type { ListUnitsQuery } from './dto/list-units.query.js';
import { Unit } from './unit.entity.js';
import type { UnitRow } from './unit.row.js';

/** Must match the trigram index `units_full_address_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION = 'u.full_address';

@Injectable()
export class UnitsRepository extends TeamScopedRepository<Unit, UnitRow> {
  constructor(@InjectRepository(Unit) repository: Repository<Unit>) {
    super(repository, 'u', {
      table: 'units',
      record: 'unit',
      columns: `u.id, u.team_id AS "teamId", u.external_ref AS "externalRef", u.address_line1 AS "addressLine1", u.address_line2 AS "addressLine2",
        u.city, u.county, u.country, u.postcode, u.area, u.full_address AS "fullAddress",
        ${tenantsOfUnitSql('u')} AS links,
        ${isoTimestamp('u.created_at')} AS "createdAt", ${isoTimestamp('u.updated_at')} AS "updatedAt"`,
    });
  }

  list(teamId: string, query: ListUnitsQuery): Promise<[UnitRow[], number]> {
    const filter = new FilterBuilder();
    const pattern = containsPattern(query.search);
    if (pattern) filter.and(`${SEARCH_EXPRESSION} ILIKE ${filter.bind(pattern)}`);
    return this.pageRows(teamId, query, filter.build());
  }
}
