import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { containsPattern, InvalidReferenceError, TeamScopedRepository } from '@app/common';
import type { ListWorkOrdersQuery } from './dto/list-work-orders.query.js';
import type { WorkOrderRow } from './dto/work-order.response.js';
import { WorkOrder, type WorkOrderStatus } from './work-order.entity.js';

// Work orders are the busiest resource, so their queries are written by hand: one round trip per read, create
// and update, rows mapped straight to responses. Every statement binds the team as $1 (see teamSql).

/** Must match the trigram index `work_orders_search_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION = '(w.title || chr(31) || w.code)';

const iso = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A work order with its unit, tenant and contractor, each joined on the work order's own team. */
const SELECT_WITH_LINKS = `
  SELECT w.id, w.team_id, w.code, w.title, w.description, w.status, w.priority, w.availability,
         w.self_resolved, ${iso('w.resolved_at')} AS resolved_at, w.intake_channel,
         ${iso('w.created_at')} AS created_at, ${iso('w.updated_at')} AS updated_at,
         u.id AS unit_id, u.full_address AS unit_full_address,
         t.id AS tenant_id, t.first_name AS tenant_first_name, t.last_name AS tenant_last_name,
         t.email AS tenant_email, c.id AS contractor_id, c.company_name AS contractor_company_name
  FROM w
  JOIN units u ON u.team_id = w.team_id AND u.id = w.unit_id
  LEFT JOIN tenants t ON t.team_id = w.team_id AND t.id = w.tenant_id
  LEFT JOIN contractors c ON c.team_id = w.team_id AND c.id = w.contractor_id`;

/** Foreign keys whose violation means the body linked to a record the team does not have. */
const LINK_CONSTRAINTS: Record<string, [field: string, resource: string]> = {
  work_orders_team_id_unit_id_fkey: ['unitId', 'Unit'],
  work_orders_team_id_tenant_id_fkey: ['tenantId', 'Tenant'],
  work_orders_team_id_contractor_id_fkey: ['contractorId', 'Contractor'],
};

/** The columns a create or update writes, by column name. */
export interface WorkOrderWrite {
  title?: string;
  description?: string | null;
  intake_channel?: string;
  status?: WorkOrderStatus;
  priority?: string;
  availability?: string | null;
  self_resolved?: boolean;
  resolved_at?: string | null;
  unit_id?: string;
  tenant_id?: string | null;
  contractor_id?: string | null;
}

/** What an update's decision was based on; the update applies only if the row still matches. */
export interface WorkOrderState {
  status: WorkOrderStatus;
  contractor_id: string | null;
}

function linkError(error: unknown): unknown {
  if (!(error instanceof QueryFailedError)) return error;
  const { code, constraint } = error.driverError as { code?: string; constraint?: string };
  const link = code === '23503' && constraint ? LINK_CONSTRAINTS[constraint] : undefined;
  return link ? new InvalidReferenceError(...link) : error;
}

@Injectable()
export class WorkOrdersRepository extends TeamScopedRepository<WorkOrder> {
  constructor(@InjectRepository(WorkOrder) repository: Repository<WorkOrder>) {
    super(repository, 'w');
  }

  async findWithLinks(teamId: string, id: string): Promise<WorkOrderRow | undefined> {
    const rows = await this.teamSql<WorkOrderRow>(
      teamId,
      `WITH w AS (SELECT * FROM work_orders WHERE team_id = $1 AND id = $2) ${SELECT_WITH_LINKS}`,
      [id],
    );
    return rows[0];
  }

  async list(teamId: string, query: ListWorkOrdersQuery): Promise<[WorkOrderRow[], number]> {
    const params: unknown[] = [];
    const bind = (value: unknown): string => `$${params.push(value) + 1}`;
    const conditions = ['team_id = $1'];
    const pattern = containsPattern(query.search);
    if (pattern) conditions.push(`${SEARCH_EXPRESSION.replace(/w\./g, '')} ILIKE ${bind(pattern)}`);
    if (query.status?.length) conditions.push(`status = ANY (${bind(query.status)})`);
    if (query.priority?.length) conditions.push(`priority = ANY (${bind(query.priority)})`);
    if (query.unitId) conditions.push(`unit_id = ${bind(query.unitId)}`);
    if (query.tenantId) conditions.push(`tenant_id = ${bind(query.tenantId)}`);
    if (query.contractorId) conditions.push(`contractor_id = ${bind(query.contractorId)}`);
    const where = conditions.join(' AND ');
    const filterParams = [...params];

    const pageSql = `WITH w AS (
        SELECT * FROM work_orders WHERE ${where}
        ORDER BY created_at DESC, id DESC LIMIT ${bind(query.pageSize)} OFFSET ${bind((query.page - 1) * query.pageSize)})
      ${SELECT_WITH_LINKS} ORDER BY w.created_at DESC, w.id DESC`;
    const rows = this.teamSql<WorkOrderRow>(teamId, pageSql, params);
    const countedByStatusAndPriority = !pattern && !query.unitId && !query.tenantId && !query.contractorId;
    const total = countedByStatusAndPriority
      ? this.countByStatusAndPriority(teamId, query)
      : this.teamSql<{ total: string }>(
          teamId,
          `SELECT count(*) AS total FROM work_orders WHERE ${where}`,
          filterParams,
        ).then((result) => Number(result[0]?.total ?? 0));
    return Promise.all([rows, total]);
  }

  /** The state an update decides on. */
  async findState(teamId: string, id: string): Promise<WorkOrderState | undefined> {
    const rows = await this.teamSql<WorkOrderState>(
      teamId,
      'SELECT status, contractor_id FROM work_orders WHERE team_id = $1 AND id = $2',
      [id],
    );
    return rows[0];
  }

  /**
   * Takes the team's next number and inserts, in one statement (so one transaction): the counter row stays
   * locked until commit, serialising a team's creates, and a failed insert (a bad link) rolls the number back.
   */
  async create(teamId: string, id: string, values: Required<WorkOrderWrite>): Promise<WorkOrderRow> {
    const columns = Object.keys(values);
    const sql = `WITH numbered AS (
        UPDATE teams SET last_work_order_number = last_work_order_number + 1 WHERE id = $1
        RETURNING last_work_order_number AS number),
      w AS (
        INSERT INTO work_orders (team_id, id, number, ${columns.join(', ')})
        SELECT $1, $2, numbered.number, ${columns.map((_, i) => `$${i + 3}`).join(', ')} FROM numbered
        RETURNING *)
      ${SELECT_WITH_LINKS} WHERE w.team_id = $1`;
    try {
      const [row] = await this.teamSql<WorkOrderRow>(teamId, sql, [id, ...Object.values(values)]);
      return row;
    } catch (error) {
      throw linkError(error);
    }
  }

  /**
   * Applies `values` if the row is still in `expected` (else undefined: the caller reads again and re-decides),
   * moves `updated_at` forward and returns the updated work order with its links.
   */
  async updateIf(
    teamId: string,
    id: string,
    expected: WorkOrderState,
    values: WorkOrderWrite,
  ): Promise<WorkOrderRow | undefined> {
    const entries: [string, unknown][] = Object.entries(values);
    const sets = entries.map(([column], i) => `${column} = $${i + 5}`);
    const sql = `WITH w AS (
        UPDATE work_orders
        SET ${[...sets, "updated_at = greatest(clock_timestamp(), updated_at + interval '1 millisecond')"].join(', ')}
        WHERE team_id = $1 AND id = $2 AND status = $3 AND contractor_id IS NOT DISTINCT FROM $4
        RETURNING *)
      ${SELECT_WITH_LINKS}`;
    try {
      const rows = await this.teamSql<WorkOrderRow>(teamId, sql, [
        id,
        expected.status,
        expected.contractor_id,
        ...entries.map(([, value]) => value),
      ]);
      return rows[0];
    } catch (error) {
      throw linkError(error);
    }
  }

  /**
   * The exact number of the team's work orders with the given statuses and priorities (all when none), read
   * from `work_order_counts`, which a trigger keeps in the same transaction as every write.
   */
  private async countByStatusAndPriority(teamId: string, query: ListWorkOrdersQuery): Promise<number> {
    const rows = await this.teamSql<{ total: string | null }>(
      teamId,
      `SELECT sum(count) AS total FROM work_order_counts
        WHERE team_id = $1
          AND ($2::text[] IS NULL OR status = ANY ($2))
          AND ($3::text[] IS NULL OR priority = ANY ($3))`,
      [query.status?.length ? query.status : null, query.priority?.length ? query.priority : null],
    );
    return Number(rows[0]?.total ?? 0);
  }
}
