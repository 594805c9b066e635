import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { TeamScopedRepository } from '@app/common';
import { Unit } from '../units/unit.entity.js';
import { TenantUnit } from './tenant-unit.entity.js';
import { Tenant } from './tenant.entity.js';

/** A tenant's link with the linked unit's address. */
export interface LinkedUnitRow {
  id: string;
  tenantId: string;
  unitId: string;
  fullAddress: string;
}

/** A unit's link with the linked tenant's name and email. */
export interface LinkedTenantRow {
  id: string;
  unitId: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string | null;
}

function groupBy<T>(rows: T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(keyOf(row));
    if (group) group.push(row);
    else groups.set(keyOf(row), [row]);
  }
  return groups;
}

/**
 * The links between tenants and units. Reads take a whole page of owners at once (one query, never one per
 * record) and return each owner's links oldest first; the joined side is matched on the link's own `team_id`.
 */
@Injectable()
export class TenantUnitsRepository extends TeamScopedRepository<TenantUnit> {
  constructor(@InjectRepository(TenantUnit) repository: Repository<TenantUnit>) {
    super(repository, 'tu');
  }

  /** Links by tenant id; a tenant without links is absent from the map. */
  async unitsOfTenants(
    teamId: string,
    tenantIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, LinkedUnitRow[]>> {
    if (tenantIds.length === 0) return new Map();
    const rows = await this.query(
      teamId,
      (qb) =>
        qb
          .innerJoin(Unit, 'u', 'u.team_id = tu.team_id AND u.id = tu.unit_id')
          .select('tu.id', 'id')
          .addSelect('tu.tenant_id', 'tenantId')
          .addSelect('u.id', 'unitId')
          .addSelect('u.full_address', 'fullAddress')
          .where('tu.tenant_id IN (:...tenantIds)', { tenantIds })
          .orderBy('tu.created_at', 'ASC')
          .addOrderBy('tu.id', 'ASC'),
      manager,
    ).getRawMany<LinkedUnitRow>();
    return groupBy(rows, (row) => row.tenantId);
  }

  /** Links by unit id; a unit without links is absent from the map. */
  async tenantsOfUnits(
    teamId: string,
    unitIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, LinkedTenantRow[]>> {
    if (unitIds.length === 0) return new Map();
    const rows = await this.query(
      teamId,
      (qb) =>
        qb
          .innerJoin(Tenant, 't', 't.team_id = tu.team_id AND t.id = tu.tenant_id')
          .select('tu.id', 'id')
          .addSelect('tu.unit_id', 'unitId')
          .addSelect('t.id', 'tenantId')
          .addSelect('t.first_name', 'firstName')
          .addSelect('t.last_name', 'lastName')
          .addSelect('t.email', 'email')
          .where('tu.unit_id IN (:...unitIds)', { unitIds })
          .orderBy('tu.created_at', 'ASC')
          .addOrderBy('tu.id', 'ASC'),
      manager,
    ).getRawMany<LinkedTenantRow>();
    return groupBy(rows, (row) => row.unitId);
  }

  /**
   * Makes `unitIds` (distinct, all the team's) the tenant's links: links that stay keep their id and
   * `created_at`, the others are deleted, new ones are added. Call inside a transaction that holds the
   * tenant's row lock, so concurrent replacements of one tenant's links run one after the other.
   */
  async replaceUnitsOfTenant(
    teamId: string,
    tenantId: string,
    unitIds: string[],
    manager: EntityManager,
  ): Promise<void> {
    const removal = this.repo(manager)
      .createQueryBuilder()
      .delete()
      .where('team_id = :teamId AND tenant_id = :tenantId', { teamId, tenantId });
    if (unitIds.length > 0) removal.andWhere('unit_id NOT IN (:...unitIds)', { unitIds });
    await removal.execute();
    if (unitIds.length === 0) return;

    // `created_at` has millisecond precision, so links added by one request would tie and list in random
    // order. Stamping them one millisecond apart, after the tenant's newest link, keeps "oldest first"
    // equal to the order the caller gave.
    await manager.query(
      `WITH added AS (
         SELECT wanted.unit_id, row_number() OVER (ORDER BY wanted.position) AS position
         FROM unnest($3::uuid[]) WITH ORDINALITY AS wanted (unit_id, position)
         WHERE NOT EXISTS (
           SELECT 1 FROM tenant_units tu
           WHERE tu.team_id = $1::uuid AND tu.tenant_id = $2::uuid AND tu.unit_id = wanted.unit_id)
       ), base AS (
         SELECT greatest(clock_timestamp(), max(created_at) + interval '1 millisecond') AS at
         FROM tenant_units WHERE team_id = $1::uuid AND tenant_id = $2::uuid
       )
       INSERT INTO tenant_units (team_id, tenant_id, unit_id, created_at)
       SELECT $1::uuid, $2::uuid, added.unit_id, base.at + (added.position - 1) * interval '1 millisecond'
       FROM added, base
       ON CONFLICT (team_id, tenant_id, unit_id) DO NOTHING`,
      [teamId, tenantId, unitIds],
    );
  }
}
