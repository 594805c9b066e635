import { hash, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { HttpError } from './http.js';
import type { Status, WorkOrderFilters, WorkOrderInput } from './validate.js';
import { named } from './statements.js';

/** A work order with its unit, tenant and contractor, each joined on the work order's own team. */
const SELECT_WITH_LINKS = `
  SELECT w.id, w.team_id, w.external_ref, w.code, w.title, w.description, w.status, w.priority, w.availability, w.self_resolved,
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
  external_ref: string | null;
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
    externalRef: row.external_ref,
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
  const { rows } = await named<WorkOrderRow>(db, `${SELECT_WITH_LINKS} WHERE w.team_id = $1 AND w.id = $2`, [
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
    // A list's best plan depends on its values (a search, a rare status): planned on every run, as the service's.
    pool.query<WorkOrderRow>(
      `${SELECT_WITH_LINKS} WHERE ${filter} ORDER BY w.created_at DESC, w.id DESC
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.pageSize, offset],
    ),
    pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM work_orders w WHERE ${filter}`, params),
  ]);
  const total = count.rows[0].total;
  return {
    data: rows.rows.map(toResponse),
    pagination: { total, page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize) },
  };
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

/**
 * The event the service's outbox writes in the write's transaction, in one statement as the service does: the
 * team's sequence, the event row with its body, a delivery for each enabled webhook endpoint that takes it, and
 * the work order's history entry (`actor` as JSON; the floor's key lookup reads no key name, so it is null).
 */
async function recordEvent(
  client: pg.PoolClient,
  teamId: string,
  actor: string,
  type: string,
  object: object & { id?: unknown },
  previousAttributes?: Record<string, unknown>,
): Promise<void> {
  const createdAt = new Date();
  const data = previousAttributes ? { object, previousAttributes } : { object };
  const rest = JSON.stringify({ type, createdAt: createdAt.toISOString(), data }).slice(1);
  const changes = previousAttributes
    ? JSON.stringify(
        Object.fromEntries(
          Object.entries(previousAttributes).map(([field, from]) => [
            field,
            { from: from ?? null, to: (object as Record<string, unknown>)[field] ?? null },
          ]),
        ),
      )
    : null;
  await named(
    client,
    `WITH next AS (
       INSERT INTO event_sequences AS s (team_id, last_seq) VALUES ($1, 1)
       ON CONFLICT (team_id) DO UPDATE SET last_seq = s.last_seq + 1
       RETURNING s.last_seq),
     named AS (SELECT last_seq, 'evt_' || lpad(to_hex(last_seq), 16, '0') || $2 AS id FROM next),
     event AS (
       INSERT INTO events (team_id, seq, id, type, created_at, body)
       SELECT $1, last_seq, id, $3, $4, '{"id":"' || id || '",' || $5 FROM named
       RETURNING id, type, body),
     fanout AS (
       INSERT INTO webhook_deliveries (team_id, endpoint_id, event_id, type, body, next_attempt_at, created_at)
       SELECT $1, w.id, event.id, event.type, event.body, $4, $4
         FROM event JOIN webhook_endpoints w
           ON w.team_id = $1 AND w.enabled AND (w.types IS NULL OR event.type = ANY (w.types))),
     history AS (
       INSERT INTO record_history (team_id, record, record_id, seq, id, type, at, actor, changes, subject_id)
       SELECT $1, 'work_order', $6::uuid, last_seq, id, $7, $4, $8::jsonb, $9::jsonb, NULL FROM named)
     SELECT id FROM event`,
    [
      teamId,
      randomBytes(8).toString('hex'),
      type,
      createdAt,
      rest,
      object.id,
      type.slice(type.lastIndexOf('.') + 1),
      actor,
      changes,
    ],
  );
}

/** The fields whose values differ, with their values before (the `.updated` event's `previousAttributes`). */
function changedFrom(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(before)) {
    if (key !== 'updatedAt' && JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = before[key];
  }
  return changed;
}

/** The joined read of one work order, from the rows a data-modifying CTE `w` returned. */
const JOINED_FROM_CTE = SELECT_WITH_LINKS.replace('FROM work_orders w', 'FROM w');

/** One statement: the team's next number, the insert, and the joined read of the new row. */
async function insertWorkOrder(
  client: pg.PoolClient,
  teamId: string,
  input: WorkOrderInput & { title: string; unitId: string },
): Promise<Record<string, unknown>> {
  const { rows } = await named<WorkOrderRow>(
    client,
    `WITH counter AS (
       UPDATE teams SET last_work_order_number = last_work_order_number + 1 WHERE id = $1
       RETURNING last_work_order_number AS n),
     w AS (
       INSERT INTO work_orders (team_id, id, number, title, description, status, priority, availability, self_resolved,
                                resolved_at, intake_channel, unit_id, tenant_id, contractor_id)
       SELECT $1, $2, n, $3, $4, 'reported', $5, $6, false, NULL, 'api', $7, $8, $9 FROM counter
       RETURNING *)
     ${JOINED_FROM_CTE}`,
    [
      teamId,
      randomUUID(),
      input.title,
      input.description ?? null,
      input.priority ?? '2',
      input.availability ?? null,
      input.unitId,
      input.tenantId ?? null,
      input.contractorId ?? null,
    ],
  );
  if (!rows[0]) throw new Error(`team ${teamId} does not exist`);
  return toResponse(rows[0]);
}

/**
 * POST: one transaction with the insert (a bad link fails its foreign key: 400, and the number is not used,
 * since the transaction rolls back) and its event: BEGIN, insert-and-read, event, COMMIT.
 */
export async function createWorkOrder(
  pool: pg.Pool,
  teamId: string,
  input: WorkOrderInput & { title: string; unitId: string },
  actor: string,
): Promise<{ data: Record<string, unknown> }> {
  return inTransaction(pool, async (client) => {
    const data = await insertWorkOrder(client, teamId, input);
    await recordEvent(client, teamId, actor, 'work_order.created', data);
    return { data };
  });
}

/** The service's request fingerprint: SHA-256 of the body's JSON with keys sorted. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface StoredAnswer {
  status: number;
  body: string;
  replayed: boolean;
}

/**
 * POST with an Idempotency-Key, as the service stores it: in one transaction, the key claimed with an advisory
 * lock (409 when held), a stored answer looked up (replayed, or 422 for another request), then the insert, its
 * event and the stored answer. The floor may skip the service's savepoint: a failed insert rolls back the whole
 * transaction and is not stored (the service stores 4xx answers; the benchmark's bodies are all valid).
 */
export async function createWorkOrderOnce(
  pool: pg.Pool,
  teamId: string,
  key: string,
  path: string,
  body: Record<string, unknown>,
  input: WorkOrderInput & { title: string; unitId: string },
  actor: string,
): Promise<StoredAnswer> {
  const fingerprint = hash('sha256', canonicalJson(body), 'hex');
  return inTransaction(pool, async (client) => {
    const claim = await named<{ taken: boolean }>(
      client,
      'SELECT pg_try_advisory_xact_lock(hashtext($1), hashtext($2)) AS taken',
      [teamId, key],
    );
    if (!claim.rows[0]?.taken) throw new HttpError(409, 'A request with this Idempotency-Key is still in progress');
    const stored = await named<{
      method: string;
      path: string;
      fingerprint: string;
      status: number;
      body: string;
    }>(
      client,
      `SELECT method, path, fingerprint, status, body FROM idempotency_keys
        WHERE team_id = $1 AND key = $2 AND created_at > now() - interval '24 hours'`,
      [teamId, key],
    );
    const previous = stored.rows[0];
    if (previous) {
      if (previous.method !== 'POST' || previous.path !== path || previous.fingerprint !== fingerprint)
        throw new HttpError(422, 'This Idempotency-Key was used with a different request');
      return { status: previous.status, body: previous.body, replayed: true };
    }
    const data = await insertWorkOrder(client, teamId, input);
    await recordEvent(client, teamId, actor, 'work_order.created', data);
    const text = JSON.stringify({ data });
    await named(
      client,
      `INSERT INTO idempotency_keys AS k (team_id, key, method, path, fingerprint, status, body, entity_tag, created_at)
       VALUES ($1, $2, 'POST', $3, $4, 201, $5, $6, now())
       ON CONFLICT (team_id, key) DO UPDATE SET method = excluded.method, path = excluded.path,
         fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
         entity_tag = excluded.entity_tag, created_at = excluded.created_at`,
      [teamId, key, path, fingerprint, text, entityTagOf(text)],
    );
    return { status: 201, body: text, replayed: false };
  });
}

/** The service's strong ETag: a hash of the exact bytes sent. */
export function entityTagOf(json: string): string {
  return `"${hash('sha256', json, 'base64url').slice(0, 27)}"`;
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

/**
 * PUT: one transaction with the row locked and read whole (its status decides the move, and the event's
 * `previousAttributes` compare against it), the update and its joined read in one statement, and the event:
 * BEGIN, lock-and-read, update-and-read, event, COMMIT. A bad link fails its foreign key (400).
 */
export async function updateWorkOrder(
  pool: pg.Pool,
  teamId: string,
  id: string,
  input: WorkOrderInput,
  actor: string,
): Promise<unknown> {
  const updated = await inTransaction(pool, async (client) => {
    const { rows } = await named<WorkOrderRow & { contractor_id: string | null }>(
      client,
      `${SELECT_WITH_LINKS.replace('SELECT ', 'SELECT w.contractor_id, ')} WHERE w.team_id = $1 AND w.id = $2 FOR UPDATE OF w`,
      [teamId, id],
    );
    const current = rows[0];
    if (!current) throw new HttpError(404, 'Work order not found');
    const before = toResponse(current);

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
    const after = await named<WorkOrderRow>(
      client,
      `WITH w AS (UPDATE work_orders SET ${sets.join(', ')} WHERE team_id = $1 AND id = $2 RETURNING *)
       ${JOINED_FROM_CTE}`,
      params,
    );
    const data = toResponse(after.rows[0]);
    await recordEvent(client, teamId, actor, 'work_order.updated', data, changedFrom(before, data));
    return data;
  });
  return { data: updated };
}
