import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { containsPattern, TeamScopedRepository } from '@app/common';
import type { LinkedTenantRow } from '../tenants/tenant-units.repository.js';
import type { ListUnitsQuery } from './dto/list-units.query.js';
import { Unit } from './unit.entity.js';

/** A unit row with its tenant links (oldest first), as the list query returns it. */
export interface UnitWithLinks extends Unit {
  links: LinkedTenantRow[];
}

interface UnitListRow {
  team_id: string;
  id: string;
  address_line1: string;
  address_line2: string | null;
  city: string;
  county: string | null;
  country: string;
  postcode: string;
  area: string | null;
  full_address: string;
  created_at: Date;
  updated_at: Date;
  links: LinkedTenantRow[];
}

/** Must match the trigram index `units_full_address_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION = 'u.full_address';

@Injectable()
export class UnitsRepository extends TeamScopedRepository<Unit> {
  constructor(@InjectRepository(Unit) repository: Repository<Unit>) {
    super(repository, 'u');
  }

  /** One page with each unit's tenant links aggregated in the same statement, and the exact total beside it. */
  async list(teamId: string, query: ListUnitsQuery): Promise<[UnitWithLinks[], number]> {
    const pattern = containsPattern(query.search);
    const [rows, total] = await this.pageSql<UnitListRow>(teamId, query, {
      table: 'units',
      filter: pattern ? `AND ${SEARCH_EXPRESSION} ILIKE $2` : '',
      filterParams: pattern ? [pattern] : [],
      extra: `coalesce((
        SELECT json_agg(json_build_object('id', tu.id, 'unitId', tu.unit_id, 'tenantId', t.id,
               'firstName', t.first_name, 'lastName', t.last_name, 'email', t.email) ORDER BY tu.created_at, tu.id)
        FROM tenant_units tu JOIN tenants t ON t.team_id = tu.team_id AND t.id = tu.tenant_id
        WHERE tu.team_id = page.team_id AND tu.unit_id = page.id), '[]') AS links`,
    });
    return [rows.map(toUnitWithLinks), total];
  }

  /**
   * The unit, locked until the transaction ends, so concurrent partial updates each see the other's parts.
   * FOR NO KEY UPDATE (the key never changes) leaves links to the unit free to be added meanwhile.
   */
  findForUpdate(teamId: string, id: string, manager: EntityManager): Promise<Unit | null> {
    return this.query(teamId, (qb) => qb.where('u.id = :id', { id }).setLock('for_no_key_update'), manager).getOne();
  }
}

function toUnitWithLinks(row: UnitListRow): UnitWithLinks {
  return {
    teamId: row.team_id,
    id: row.id,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    city: row.city,
    county: row.county,
    country: row.country,
    postcode: row.postcode,
    area: row.area,
    fullAddress: row.full_address,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    links: row.links,
  };
}
