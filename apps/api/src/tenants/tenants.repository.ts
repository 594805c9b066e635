import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { containsPattern, TeamScopedRepository } from '@app/common';
import type { ListTenantsQuery } from './dto/list-tenants.query.js';
import type { LinkedUnitRow } from './tenant-units.repository.js';
import { Tenant } from './tenant.entity.js';

/**
 * The team's tenants whose own fields match ($2), or who are linked to a unit whose address matches.
 * `fields ILIKE p OR EXISTS (linked address ILIKE p)` makes PostgreSQL test every tenant of the team in turn;
 * a UNION of the two matching id sets lets each side use its trigram index (`tenants_search_trgm`,
 * `units_full_address_trgm`), so the expressions must match those indexes exactly.
 */
const MATCHING_IDS = `SELECT m.id FROM tenants m
  WHERE m.team_id = $1
    AND (m.first_name || chr(31) || m.last_name || chr(31) || coalesce(m.email, '') || chr(31) || coalesce(m.phone_number, '')) ILIKE $2
  UNION
  SELECT tu.tenant_id FROM tenant_units tu
  JOIN units u ON u.team_id = tu.team_id AND u.id = tu.unit_id
  WHERE tu.team_id = $1 AND u.full_address ILIKE $2`;

/** A tenant row with its unit links (oldest first), as the list query returns it. */
export interface TenantWithLinks extends Tenant {
  links: LinkedUnitRow[];
}

interface TenantListRow {
  team_id: string;
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone_number: string | null;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
  links: LinkedUnitRow[];
}

@Injectable()
export class TenantsRepository extends TeamScopedRepository<Tenant> {
  constructor(@InjectRepository(Tenant) repository: Repository<Tenant>) {
    super(repository, 't');
  }

  /** One page with each tenant's links aggregated in the same statement, and the exact total beside it. */
  async list(teamId: string, query: ListTenantsQuery): Promise<[TenantWithLinks[], number]> {
    const pattern = containsPattern(query.search);
    const [rows, total] = await this.pageSql<TenantListRow>(teamId, query, {
      table: 'tenants',
      filter: pattern ? `AND t.id IN (${MATCHING_IDS})` : '',
      filterParams: pattern ? [pattern] : [],
      extra: `coalesce((
        SELECT json_agg(json_build_object('id', tu.id, 'tenantId', tu.tenant_id, 'unitId', u.id,
                                          'fullAddress', u.full_address) ORDER BY tu.created_at, tu.id)
        FROM tenant_units tu JOIN units u ON u.team_id = tu.team_id AND u.id = tu.unit_id
        WHERE tu.team_id = page.team_id AND tu.tenant_id = page.id), '[]') AS links`,
    });
    return [rows.map(toTenantWithLinks), total];
  }
}

function toTenantWithLinks(row: TenantListRow): TenantWithLinks {
  return {
    teamId: row.team_id,
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    links: row.links,
  };
}
