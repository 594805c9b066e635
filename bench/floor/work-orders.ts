import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { HttpError } from './http.js';
import type { Status, WorkOrderFilters, WorkOrderInput } from './validate.js';

/** A work order with its unit, tenant and contractor, each joined on the work order's own team. */
const SELECT_WITH_LINKS = `
  SELECT w.id, w.team_id, w.code, w.title, w.description, w.status, w.priority, w.availability, w.self_resolved,
         w.resolved_at, w.intake_channel, w.created_at, w.updated_at,
         u.id AS u_id, u.full_address AS u_full_address,
         t.id AS t_id, t.first_name AS t_first_name, t.last_name AS t_last_name, t.email AS t_email,
         c.id AS c_id, c.company_name AS c_company_name
  FROM work_orders w
  JOIN units u ON u.team_id = w.team_id AND u.id = w.unit_id
  LEFT JOIN tenants t ON t.team_id = w.team_id AND t.id = w.tenant_id
  LEFT JOIN contractors c ON c.team_id = w.team_id AND c.id = w.contractor_id`;

interface WorkOrderRow {
  id: string;
  team_id: string;
  code: string;
  title: string;
  description: string | null;
  status: Status;
  priority: string;
  availability: string | null;
  self_resolved: boolean;
  resolved_at: Date | null;
  intake_channel: string;
  created_at: Date;
  updated_at: Date;
  u_id: string;
  u_full_address: string;
  t_id: string | null;
  t_first_name: string;
  t_last_name: string;
  t_email: string | null;
  c_id: string | null;
  c_company_name: string;
}

/** The service's WorkOrderResponse, field for field and in its order. */
function toResponse(row: WorkOrderRow): Record<string, unknown> {
  return {
    id: row.id,
    teamId: row.team_id,
    code: row.code,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    availability: row.availability,
    selfResolved: row.self_resolved,
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    intakeChannel: row.intake_channel,
    tenant: row.t_id
      ? { id: row.t_id, firstName: row.t_first_name, lastName: row.t_last_name, email: row.t_email }
      : null,
    unit: { id: row.u_id, fullAddress: row.u_full_address },
    contractor: row.c_id ? { id: row.c_id, companyName: row.c_company_name } : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const MOVES: Record<Status, readonly Status[]> = {
  reported: ['in_progress', 'completed', 'cancelled'],
  in_progress: ['reported', 'completed', 'cancelled'],
  completed: ['in_progress'],
  cancelled: ['reported'],
};

type Queryable = pg.Pool | pg.PoolClient;

async function findOne(db: Queryable, teamId: string, id: string): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.query<WorkOrderRow>(`${SELECT_WITH_LINKS} WHERE w.team_id = $1 AND w.id = $2`, [
    teamId,
    id,
  ]);
  return rows[0] && toResponse(rows[0]);
}

export async function getWorkOrder(pool: pg.Pool, teamId: string, id: string): Promise<unknown> {
  const found = await findOne(pool, teamId, id);
  if (!found) throw new HttpError(404, 'Work order not found');
  return { data: found };
}

export async function listWorkOrders(pool: pg.Pool, teamId: string, query: WorkOrderFilters): Promise<unknown> {
  const params: unknown[] = [teamId];
  const where = ['w.team_id = $1'];
  const add = (sql: (n: string) => string, value: unknown): void => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  // The same expression as the trigram index work_orders_search_trgm, or the index cannot serve it.
  if (query.pattern) add((n) => `(w.title || chr(31) || w.code) ILIKE ${n}`, query.pattern);
  if (query.status) add((n) => `w.status = ANY(${n}::varchar[])`, query.status);
  if (query.priority) add((n) => `w.priority = ANY(${n}::bpchar[])`, query.priority);
  if (query.unitId) add((n) => `w.unit_id = ${n}`, query.unitId);
  if (query.tenantId) add((n) => `w.tenant_id = ${n}`, query.tenantId);
  if (query.contractorId) add((n) => `w.contractor_id = ${n}`, query.contractorId);
  const filter = where.join(' AND ');
  const offset = (query.page - 1) * query.pageSize;
  const [rows, count] = await Promise.all([
    pool.query<WorkOrderRow>(
      `${SELECT_WITH_LINKS} WHERE ${filter} ORDER BY w.created_at DESC, w.id DESC LIMIT ${query.pageSize} OFFSET ${offset}`,
      params,
    ),
    pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM work_orders w WHERE ${filter}`, params),
  ]);
  const total = count.rows[0].total;
  return {
    data: rows.rows.map(toResponse),
    pagination: { total, page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize) },
  };
}

/** 400 naming the first link (unitId, tenantId, contractorId) that is not a record of the team. */
async function assertLinksExist(db: Queryable, teamId: string, input: WorkOrderInput): Promise<void> {
  const links = [input.unitId, input.tenantId, input.contractorId];
  if (links.every((link) => link === undefined || link === null)) return;
  const { rows } = await db.query<{ unit: boolean; tenant: boolean; contractor: boolean }>(
    `SELECT ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM units WHERE team_id = $1 AND id = $2)) AS unit,
            ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM tenants WHERE team_id = $1 AND id = $3)) AS tenant,
            ($4::uuid IS NULL OR EXISTS (SELECT 1 FROM contractors WHERE team_id = $1 AND id = $4)) AS contractor`,
    [teamId, ...links.map((link) => link ?? null)],
  );
  const found = rows[0];
  if (!found.unit) throw new HttpError(400, 'unitId must reference an existing unit');
  if (!found.tenant) throw new HttpError(400, 'tenantId must reference an existing tenant');
  if (!found.contractor) throw new HttpError(400, 'contractorId must reference an existing contractor');
}

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export async function createWorkOrder(
  pool: pg.Pool,
  teamId: string,
  input: WorkOrderInput & { title: string; unitId: string },
): Promise<unknown> {
  // Checked before a number is taken: a rejected create must not consume one.
  await assertLinksExist(pool, teamId, input);
  const id = randomUUID();
  await inTransaction(pool, async (client) => {
    // The team row stays locked until commit: a team's creates take numbers one after another, without gaps.
    const counter = await client.query<{ n: number }>(
      'UPDATE teams SET last_work_order_number = last_work_order_number + 1 WHERE id = $1 RETURNING last_work_order_number AS n',
      [teamId],
    );
    if (!counter.rows[0]) throw new Error(`team ${teamId} does not exist`);
    await client.query(
      `INSERT INTO work_orders (team_id, id, number, title, description, status, priority, availability, self_resolved,
                                resolved_at, intake_channel, unit_id, tenant_id, contractor_id)
       VALUES ($1, $2, $3, $4, $5, 'reported', $6, $7, false, NULL, 'api', $8, $9, $10)`,
      [
        teamId,
        id,
        counter.rows[0].n,
        input.title,
        input.description ?? null,
        input.priority ?? '2',
        input.availability ?? null,
        input.unitId,
        input.tenantId ?? null,
        input.contractorId ?? null,
      ],
    );
  });
  return { data: await findOne(pool, teamId, id) };
}

const COLUMN_OF: Record<string, string> = {
  title: 'title',
  description: 'description',
  unitId: 'unit_id',
  tenantId: 'tenant_id',
  contractorId: 'contractor_id',
  availability: 'availability',
  priority: 'priority',
};

export async function updateWorkOrder(
  pool: pg.Pool,
  teamId: string,
  id: string,
  input: WorkOrderInput,
): Promise<unknown> {
  const updated = await inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ status: Status; contractor_id: string | null }>(
      'SELECT status, contractor_id FROM work_orders WHERE team_id = $1 AND id = $2 FOR UPDATE',
      [teamId, id],
    );
    const current = rows[0];
    if (!current) throw new HttpError(404, 'Work order not found');
    await assertLinksExist(client, teamId, input);

    const sets: string[] = [];
    const params: unknown[] = [teamId, id];
    const set = (column: string, value: unknown): void => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    for (const [field, column] of Object.entries(COLUMN_OF)) {
      const value = input[field as keyof WorkOrderInput];
      if (value !== undefined) set(column, value);
    }
    const to = input.status;
    if (to !== undefined && to !== current.status) {
      if (!MOVES[current.status].includes(to))
        throw new HttpError(409, `Cannot change status from ${current.status} to ${to}`);
      set('status', to);
      const contractorAfter = input.contractorId === undefined ? current.contractor_id : input.contractorId;
      if (to === 'completed') {
        set('resolved_at', new Date().toISOString());
        set('self_resolved', contractorAfter === null);
      } else if (current.status === 'completed') {
        set('resolved_at', null);
        set('self_resolved', false);
      }
    }
    // updated_at moves forward on every PUT, even within one millisecond, as the service's does.
    sets.push("updated_at = greatest(clock_timestamp(), updated_at + interval '1 millisecond')");
    await client.query(`UPDATE work_orders SET ${sets.join(', ')} WHERE team_id = $1 AND id = $2`, params);
    return findOne(client, teamId, id);
  });
  return { data: updated };
}
