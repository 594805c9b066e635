import type pg from 'pg';
import type { PageParams } from './validate.js';
import { named } from './statements.js';

interface TenantRow {
  id: string;
  team_id: string;
  external_ref: string | null;
  first_name: string;
  last_name: string;
  email: string | null;
  phone_number: string | null;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}

interface LinkRow {
  id: string;
  tenant_id: string;
  unit_id: string;
  full_address: string;
}

/**
 * Tenants whose own fields or a linked unit's address match, as one set of ids. Each branch uses the expression
 * of a trigram index (tenants_search_trgm, units_full_address_trgm), so each is an index scan; a UNION keeps them
 * apart where an OR in one WHERE clause would make PostgreSQL test every tenant of the team.
 */
const MATCHING_TENANT_IDS = `
  SELECT s.id FROM tenants s
  WHERE s.team_id = $1
    AND (s.first_name || chr(31) || s.last_name || chr(31) || coalesce(s.email, '') || chr(31) || coalesce(s.phone_number, '')) ILIKE $2
  UNION
  SELECT tu.tenant_id FROM units u
  JOIN tenant_units tu ON tu.team_id = u.team_id AND tu.unit_id = u.id
  WHERE u.team_id = $1 AND u.full_address ILIKE $2`;

export async function listTenants(pool: pg.Pool, teamId: string, query: PageParams): Promise<unknown> {
  const params: unknown[] = [teamId];
  let filter = 't.team_id = $1';
  if (query.pattern) {
    params.push(query.pattern);
    filter += ` AND t.id IN (${MATCHING_TENANT_IDS})`;
  }
  const offset = (query.page - 1) * query.pageSize;
  const [rows, count] = await Promise.all([
    // As for work orders: a list is planned for its values on every run.
    pool.query<TenantRow>(
      `SELECT t.id, t.team_id, t.external_ref, t.first_name, t.last_name, t.email, t.phone_number, t.notes, t.created_at, t.updated_at
       FROM tenants t WHERE ${filter}
       ORDER BY t.created_at DESC, t.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.pageSize, offset],
    ),
    pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM tenants t WHERE ${filter}`, params),
  ]);
  const links = new Map<string, LinkRow[]>();
  if (rows.rows.length > 0) {
    // One query for the whole page's links, oldest first.
    const linked = await named<LinkRow>(
      pool,
      `SELECT tu.id, tu.tenant_id, u.id AS unit_id, u.full_address
       FROM tenant_units tu JOIN units u ON u.team_id = tu.team_id AND u.id = tu.unit_id
       WHERE tu.team_id = $1 AND tu.tenant_id = ANY($2::uuid[])
       ORDER BY tu.created_at, tu.id`,
      [teamId, rows.rows.map((row) => row.id)],
    );
    for (const link of linked.rows) links.set(link.tenant_id, [...(links.get(link.tenant_id) ?? []), link]);
  }
  const total = count.rows[0].total;
  return {
    data: rows.rows.map((row) => ({
      id: row.id,
      teamId: row.team_id,
      externalRef: row.external_ref,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phoneNumber: row.phone_number,
      notes: row.notes,
      tenantUnits: (links.get(row.id) ?? []).map((link) => ({
        id: link.id,
        unit: { id: link.unit_id, fullAddress: link.full_address },
      })),
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    })),
    pagination: { total, page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize) },
  };
}
