import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { containsPattern, FilterBuilder, isoTimestamp, TeamScopedRepository } from '@app/common';
import { unitsOfTenantSql } from '../tenancies/index.js';
import type { ListTenantsQuery } from './dto/list-tenants.query.js';
import { Tenant } from './tenant.entity.js';
import type { TenantRow } from './tenant.row.js';

/**
 * The team's tenants whose own fields match `pattern`, or who are linked to a unit whose address matches.
 * `fields ILIKE p OR EXISTS (linked address ILIKE p)` makes PostgreSQL test every tenant of the team in turn;
 * a UNION of the two matching id sets lets each side use its trigram index (`tenants_search_trgm`,
 * `units_full_address_trgm`), so the expressions must match those indexes exactly.
 */
const matchingIds = (pattern: string): string => `SELECT m.id FROM tenants m
  WHERE m.team_id = $1
    AND (m.first_name || chr(31) || m.last_name || chr(31) || coalesce(m.email, '') || chr(31) || coalesce(m.phone_number, '')) ILIKE ${pattern}
  UNION
  SELECT tu.tenant_id FROM tenant_units tu
  JOIN units u ON u.team_id = tu.team_id AND u.id = tu.unit_id
  WHERE tu.team_id = $1 AND u.full_address ILIKE ${pattern}`;

@Injectable()
export class TenantsRepository extends TeamScopedRepository<Tenant, TenantRow> {
  constructor(@InjectRepository(Tenant) repository: Repository<Tenant>) {
    super(repository, 't', {
      table: 'tenants',
      record: 'tenant',
      columns: `t.id, t.team_id AS "teamId", t.external_ref AS "externalRef", t.first_name AS "firstName", t.last_name AS "lastName", t.email,
        t.phone_number AS "phoneNumber", t.notes, ${unitsOfTenantSql('t')} AS links,
        ${isoTimestamp('t.created_at')} AS "createdAt", ${isoTimestamp('t.updated_at')} AS "updatedAt"`,
    });
  }

  list(teamId: string, query: ListTenantsQuery): Promise<[TenantRow[], number]> {
    const filter = new FilterBuilder();
    const pattern = containsPattern(query.search);
    if (pattern) filter.and(`t.id IN (${matchingIds(filter.bind(pattern))})`);
    return this.pageRows(teamId, query, filter.build());
  }
}
