import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { containsPattern, TeamScopedRepository } from '@app/common';
import type { ListTenantsQuery } from './dto/list-tenants.query.js';
import { Tenant } from './tenant.entity.js';

/** The team's tenants whose own fields match; the expression must match the index `tenants_search_trgm` exactly. */
const FIELDS_MATCH = `SELECT m.id FROM tenants m
  WHERE m.team_id = :teamId
    AND (m.first_name || chr(31) || m.last_name || chr(31) || coalesce(m.email, '') || chr(31) || coalesce(m.phone_number, '')) ILIKE :pattern`;

/** The team's tenants linked to a unit whose address matches (index `units_full_address_trgm`). */
const LINKED_ADDRESS_MATCH = `SELECT tu.tenant_id FROM tenant_units tu
  JOIN units u ON u.team_id = tu.team_id AND u.id = tu.unit_id
  WHERE tu.team_id = :teamId AND u.full_address ILIKE :pattern`;

@Injectable()
export class TenantsRepository extends TeamScopedRepository<Tenant> {
  constructor(@InjectRepository(Tenant) repository: Repository<Tenant>) {
    super(repository, 't');
  }

  list(teamId: string, query: ListTenantsQuery): Promise<[Tenant[], number]> {
    return this.page(teamId, query, (qb) => {
      const pattern = containsPattern(query.search);
      // `fields ILIKE p OR EXISTS (linked address ILIKE p)` makes PostgreSQL test every tenant of the team in
      // turn; a UNION of the two matching id sets lets each side use its trigram index.
      if (pattern) qb.andWhere(`t.id IN (${FIELDS_MATCH} UNION ${LINKED_ADDRESS_MATCH})`, { pattern, teamId });
    });
  }
}
