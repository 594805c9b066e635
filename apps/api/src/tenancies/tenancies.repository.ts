import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { TeamScopedRepository } from '@app/common';
import { Tenancy } from './tenancy.entity.js';

/** A tenant's link with the linked unit's address. */
export interface LinkedUnitRow {
  id: string;
  unitId: string;
  fullAddress: string;
}

/** A unit's link with the linked tenant's name and email. */
export interface LinkedTenantRow {
  id: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string | null;
}

/**
 * A select-list expression: the links of the tenant at `alias` as a JSON array of `LinkedUnitRow`, oldest
 * first, each unit matched on the link's own `team_id`. Tenants' reads use it, so GET one and lists agree.
 */
export const unitsOfTenantSql = (alias: string): string => `coalesce((
  SELECT json_agg(json_build_object('id', tu.id, 'unitId', u.id, 'fullAddress', u.full_address)
                  ORDER BY tu.created_at, tu.id)
  FROM tenant_units tu JOIN units u ON u.team_id = tu.team_id AND u.id = tu.unit_id
  WHERE tu.team_id = ${alias}.team_id AND tu.tenant_id = ${alias}.id), '[]')`;

/** The links of the unit at `alias` as a JSON array of `LinkedTenantRow`, oldest first. */
export const tenantsOfUnitSql = (alias: string): string => `coalesce((
  SELECT json_agg(json_build_object('id', tu.id, 'tenantId', t.id, 'firstName', t.first_name,
                                    'lastName', t.last_name, 'email', t.email) ORDER BY tu.created_at, tu.id)
  FROM tenant_units tu JOIN tenants t ON t.team_id = tu.team_id AND t.id = tu.tenant_id
  WHERE tu.team_id = ${alias}.team_id AND tu.unit_id = ${alias}.id), '[]')`;

interface TenancyRow {
  id: string;
  tenantId: string;
  unitId: string;
}

/** Writes the links between tenants and units; reads come through `unitsOfTenantSql` and `tenantsOfUnitSql`. */
@Injectable()
export class TenanciesRepository extends TeamScopedRepository<Tenancy, TenancyRow> {
  constructor(@InjectRepository(Tenancy) repository: Repository<Tenancy>) {
    super(repository, 'tu', {
      table: 'tenant_units',
      columns: 'tu.id, tu.tenant_id AS "tenantId", tu.unit_id AS "unitId"',
    });
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
    await this.deleteWhere(
      teamId,
      { from: 'tenant_units tu', where: 'tu.tenant_id = $2 AND tu.unit_id <> ALL ($3::uuid[])' },
      [tenantId, unitIds],
      manager,
    );
    if (unitIds.length === 0) return;
    // `created_at` has millisecond precision, so links added by one request would tie and list in random
    // order. Stamping them one millisecond apart, after the tenant's newest link, keeps "oldest first"
    // equal to the order the caller gave.
    await this.statement(
      teamId,
      `WITH added AS (
         SELECT wanted.unit_id, row_number() OVER (ORDER BY wanted.position) AS position
         FROM unnest($3::uuid[]) WITH ORDINALITY AS wanted (unit_id, position)
         WHERE NOT EXISTS (
           SELECT 1 FROM tenant_units tu
           WHERE tu.team_id = $1 AND tu.tenant_id = $2 AND tu.unit_id = wanted.unit_id)
       ), base AS (
         SELECT greatest(clock_timestamp(), max(created_at) + interval '1 millisecond') AS at
         FROM tenant_units WHERE team_id = $1 AND tenant_id = $2
       )
       INSERT INTO tenant_units (team_id, tenant_id, unit_id, created_at)
       SELECT $1::uuid, $2::uuid, added.unit_id, base.at + (added.position - 1) * interval '1 millisecond'
       FROM added, base
       ON CONFLICT (team_id, tenant_id, unit_id) DO NOTHING`,
      [tenantId, unitIds],
      { why: 'an INSERT … SELECT: $1 in every inserted row, both CTEs read the team’s rows (team_id = $1)' },
      manager,
    );
  }
}
