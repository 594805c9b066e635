import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { containsPattern, FilterBuilder, InvalidReferenceError, isoTimestamp, TeamScopedRepository } from '@app/common';
import type { ListWorkOrdersQuery } from './dto/list-work-orders.query.js';
import { WorkOrder } from './work-order.entity.js';
import type { WorkOrderRow, WorkOrderState, WorkOrderWrite } from './work-order.row.js';

// Work orders are the busiest resource: every read, create and update is one round trip. Each statement binds
// the team as $1 (the team-scoped builders; the two CTEs below say why they are safe).

/** Must match the trigram index `work_orders_search_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION = '(w.title || chr(31) || w.code)';

/** The work order's own columns, its unit, tenant and contractor, each joined on the work order's team. */
const COLUMNS = `w.id, w.team_id AS "teamId", w.external_ref AS "externalRef", w.code, w.title, w.description, w.status, w.priority, w.availability,
  w.self_resolved AS "selfResolved", ${isoTimestamp('w.resolved_at')} AS "resolvedAt",
  w.intake_channel AS "intakeChannel",
  ${isoTimestamp('w.created_at')} AS "createdAt", ${isoTimestamp('w.updated_at')} AS "updatedAt",
  u.id AS "unitId", u.full_address AS "unitFullAddress",
  t.id AS "tenantId", t.first_name AS "tenantFirstName", t.last_name AS "tenantLastName", t.email AS "tenantEmail",
  c.id AS "contractorId", c.company_name AS "contractorCompanyName"`;
const JOINS = `JOIN units u ON u.team_id = w.team_id AND u.id = w.unit_id
  LEFT JOIN tenants t ON t.team_id = w.team_id AND t.id = w.tenant_id
  LEFT JOIN contractors c ON c.team_id = w.team_id AND c.id = w.contractor_id`;

/** The column each writable field is stored in. */
const COLUMN_OF: Record<keyof WorkOrderWrite, string> = {
  externalRef: 'external_ref',
  title: 'title',
  description: 'description',
  intakeChannel: 'intake_channel',
  status: 'status',
  priority: 'priority',
  availability: 'availability',
  selfResolved: 'self_resolved',
  resolvedAt: 'resolved_at',
  unitId: 'unit_id',
  tenantId: 'tenant_id',
  contractorId: 'contractor_id',
};

/** Foreign keys whose violation means the body linked to a record the team does not have. */
const LINK_CONSTRAINTS: Record<string, [field: string, resource: string]> = {
  work_orders_team_id_unit_id_fkey: ['unitId', 'Unit'],
  work_orders_team_id_tenant_id_fkey: ['tenantId', 'Tenant'],
  work_orders_team_id_contractor_id_fkey: ['contractorId', 'Contractor'],
};

function linkError(error: unknown): unknown {
  if (!(error instanceof QueryFailedError)) return error;
  const { code, constraint } = error.driverError as { code?: string; constraint?: string };
  const link = code === '23503' && constraint ? LINK_CONSTRAINTS[constraint] : undefined;
  return link ? new InvalidReferenceError(...link) : error;
}

/** The written fields as columns and values, in one order. */
function columnsOf(values: WorkOrderWrite): [columns: string[], values: unknown[]] {
  const entries = Object.entries(values) as [keyof WorkOrderWrite, unknown][];
  return [entries.map(([field]) => COLUMN_OF[field]), entries.map(([, value]) => value)];
}

@Injectable()
export class WorkOrdersRepository extends TeamScopedRepository<WorkOrder, WorkOrderRow> {
  constructor(@InjectRepository(WorkOrder) repository: Repository<WorkOrder>) {
    super(repository, 'w', {
      table: 'work_orders',
      record: 'work order',
      columns: COLUMNS,
      joins: JOINS,
      // A search's total carried over new work orders (the counts table's sum is the team's number of rows).
      carriedTotals: {
        created: 'work_order.created',
        size: 'SELECT coalesce(sum(c.count), 0) FROM work_order_counts c WHERE c.team_id = $1',
      },
    });
  }

  list(teamId: string, query: ListWorkOrdersQuery): Promise<[WorkOrderRow[], number]> {
    const filter = new FilterBuilder();
    const pattern = containsPattern(query.search);
    if (pattern) filter.and(`${SEARCH_EXPRESSION} ILIKE ${filter.bind(pattern)}`);
    const statuses = query.status?.length ? filter.bind(query.status) : undefined;
    const priorities = query.priority?.length ? filter.bind(query.priority) : undefined;
    if (statuses) filter.and(`w.status = ANY (${statuses})`);
    if (priorities) filter.and(`w.priority = ANY (${priorities})`);
    if (query.unitId) filter.and(`w.unit_id = ${filter.bind(query.unitId)}`);
    if (query.tenantId) filter.and(`w.tenant_id = ${filter.bind(query.tenantId)}`);
    if (query.contractorId) filter.and(`w.contractor_id = ${filter.bind(query.contractorId)}`);
    // Filtered by status and priority alone, the exact total is read from `work_order_counts`, which a
    // trigger keeps in the same transaction as every write, instead of counting the rows.
    const countedByStatusAndPriority =
      !pattern &&
      !query.unitId &&
      !query.tenantId &&
      !query.contractorId &&
      !query.updatedSince &&
      query.externalRef === undefined;
    const total = countedByStatusAndPriority
      ? (): string => `SELECT coalesce(sum(k.count), 0) AS total FROM work_order_counts k WHERE k.team_id = $1
          ${statuses ? `AND k.status = ANY (${statuses})` : ''} ${priorities ? `AND k.priority = ANY (${priorities})` : ''}`
      : undefined;
    return this.pageRows(teamId, query, filter.build(total));
  }

  /** Up to `limit` codes of the team's work orders whose `field` is `id`, oldest first, and how many there are. */
  async referring(
    teamId: string,
    field: 'unitId' | 'tenantId' | 'contractorId',
    id: string,
    limit: number,
  ): Promise<{ total: number; codes: string[] }> {
    const rows = await this.select<{ code: string; total: string }>(
      teamId,
      {
        from: 'work_orders w',
        columns: 'w.code, count(*) OVER () AS total',
        where: `w.${COLUMN_OF[field]} = $2`,
        orderBy: 'w.number',
        limit: '$3',
      },
      [id, limit],
    );
    return { total: Number(rows[0]?.total ?? 0), codes: rows.map((row) => row.code) };
  }

  /** The state an update decides on. */
  async findState(teamId: string, id: string): Promise<WorkOrderState | undefined> {
    const rows = await this.select<WorkOrderState>(
      teamId,
      { from: 'work_orders w', columns: 'w.status, w.contractor_id AS "contractorId"', where: 'w.id = $2' },
      [id],
      undefined,
      { prepared: true },
    );
    return rows[0];
  }

  /**
   * Takes the team's next number and inserts, in one statement (so one transaction): the counter row stays
   * locked until commit, serialising a team's creates, and a failed insert (a bad link) rolls the number back.
   */
  async create(teamId: string, id: string, values: Required<WorkOrderWrite>): Promise<WorkOrderRow> {
    const [columns, params] = columnsOf(values);
    const sql = `WITH numbered AS (
        UPDATE teams SET last_work_order_number = last_work_order_number + 1 WHERE id = $1
        RETURNING last_work_order_number AS number),
      w AS (
        INSERT INTO work_orders (team_id, id, number, ${columns.join(', ')})
        SELECT $1, $2, numbered.number, ${columns.map((_, i) => `$${i + 3}`).join(', ')} FROM numbered
        RETURNING *)
      SELECT ${COLUMNS} FROM w ${JOINS} WHERE w.team_id = $1`;
    try {
      const why = 'the team’s number (teams.id = $1) and an INSERT … SELECT with $1 in the row, read back by team';
      const [row] = await this.statement<WorkOrderRow>(teamId, sql, [id, ...params], { why, prepared: true });
      return row;
    } catch (error) {
      throw this.externalRefConflict(linkError(error), values);
    }
  }

  /**
   * Applies `values` if the record is still in `expected` (else undefined: the caller reads again and
   * re-decides), moves `updated_at` forward and returns the updated work order with its links.
   */
  async updateIf(
    teamId: string,
    id: string,
    expected: WorkOrderState,
    values: WorkOrderWrite,
  ): Promise<WorkOrderRow | undefined> {
    const [columns, params] = columnsOf(values);
    const sets = columns.map((column, i) => `${column} = $${i + 5}`);
    const set = [...sets, "updated_at = greatest(clock_timestamp(), updated_at + interval '1 millisecond')"].join(', ');
    try {
      const rows = await this.updateWhere<WorkOrderRow>(
        teamId,
        {
          table: 'work_orders w',
          set,
          where: 'w.id = $2 AND w.status = $3 AND w.contractor_id IS NOT DISTINCT FROM $4',
          returning: '*',
          then: { columns: COLUMNS, joins: JOINS },
        },
        [id, expected.status, expected.contractorId, ...params],
        undefined,
        { prepared: true },
      );
      return rows[0];
    } catch (error) {
      throw this.externalRefConflict(linkError(error), values);
    }
  }
}
