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

/*
 * The writes are one statement each, the event included: its body is built in SQL, as the JSON text the service's
 * outbox writes (JSON.stringify of `{type, createdAt, data}` after the event's id), so the answer's fields are
 * written out here as JSON texts in toResponse()'s order. `to_json(value)::text` escapes a string as
 * JSON.stringify does; a time is `to_char` in UTC with milliseconds and `Z`, as toISOString() (every time column
 * is timestamptz(3)). json_build_object is not used: its text has spaces after `:` and `,`.
 */

/** A value's JSON text (`null` for NULL), escaped by to_json. */
const jsonOf = (value: string): string => `coalesce(to_json(${value})::text, 'null')`;
/** The JSON text of a value that never needs escaping (a uuid, a status, a code): quoted as it is. */
const quotedOf = (value: string): string => `coalesce('"' || ${value} || '"', 'null')`;
/** A time's JSON text as toISOString() writes it (`null` for NULL). */
const isoOf = (value: string): string =>
  quotedOf(`to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
/** The JSON text of an object with these fields (name, value's JSON text), in this order. */
const objectOf = (fields: (readonly [string, string])[]): string =>
  `'{' || ${fields.map(([name, value], index) => `'${index ? ',' : ''}"${name}":' || ${value}`).join(' || ')} || '}'`;

/** One field of the answer: its name, its JSON text, and the columns its value comes from. */
interface AnswerField {
  name: string;
  json: string;
  columns: string[];
}

/** toResponse() over a joined row `r` (SELECT_WITH_LINKS's columns): its fields in order. */
function answerFields(r: string): AnswerField[] {
  const field = (name: string, column: string, text: (value: string) => string = jsonOf): AnswerField => ({
    name,
    json: text(`${r}.${column}`),
    columns: [column],
  });
  const linked = (name: string, id: string, fields: [string, string][]): AnswerField => ({
    name,
    json: `CASE WHEN ${r}.${id} IS NULL THEN 'null' ELSE ${objectOf(
      fields.map(([key, column]) => [key, (column === id ? quotedOf : jsonOf)(`${r}.${column}`)]),
    )} END`,
    columns: fields.map(([, column]) => column),
  });
  return [
    field('id', 'id', quotedOf),
    field('teamId', 'team_id', quotedOf),
    field('externalRef', 'external_ref'),
    field('code', 'code', quotedOf),
    field('title', 'title'),
    field('description', 'description'),
    field('status', 'status', quotedOf),
    field('priority', 'priority', quotedOf),
    field('availability', 'availability'),
    field('selfResolved', 'self_resolved', (value) => `CASE WHEN ${value} THEN 'true' ELSE 'false' END`),
    field('resolvedAt', 'resolved_at', isoOf),
    field('intakeChannel', 'intake_channel'),
    linked('tenant', 't_id', [
      ['id', 't_id'],
      ['firstName', 't_first_name'],
      ['lastName', 't_last_name'],
      ['email', 't_email'],
    ]),
    linked('unit', 'u_id', [
      ['id', 'u_id'],
      ['fullAddress', 'u_full_address'],
    ]),
    linked('contractor', 'c_id', [
      ['id', 'c_id'],
      ['companyName', 'c_company_name'],
    ]),
    field('createdAt', 'created_at', isoOf),
    field('updatedAt', 'updated_at', isoOf),
  ];
}

/** The joined read of one work order, from a relation `w` of work_orders rows (a CTE). */
const joinedFrom = (relation: string): string => SELECT_WITH_LINKS.replace('FROM work_orders w', `FROM ${relation} w`);

/**
 * The rest of a write's statement: what the service's outbox writes for it (events.store.ts), once for the row of
 * `source` (none when the write wrote no row; `source.at`: the time of the write, the row's created_at or new
 * updated_at, so an event is never dated before its change): the team's sequence bumped, the event `type` with its
 * body (`data`: the JSON text of its `data`), a delivery for each enabled webhook endpoint that takes it, and the
 * work order's history entry (`history`: its type, the work order's id, `changes` as a jsonb expression, and the
 * subject's id, SQL expressions over `source`). Parameters: $1 team, $2 the event id's random part, $3 the actor
 * (JSON; the floor's key lookup reads no key name, so its name is null).
 */
export function outboxOf(
  type: string,
  source: string,
  data: string,
  history: { type: string; workOrderId: string; changes: string; subjectId: string },
): string {
  return `next AS (
       INSERT INTO event_sequences AS s (team_id, last_seq) SELECT $1, 1 FROM ${source}
       ON CONFLICT (team_id) DO UPDATE SET last_seq = s.last_seq + 1
       RETURNING s.last_seq),
     named AS (SELECT last_seq, 'evt_' || lpad(to_hex(last_seq), 16, '0') || $2 AS id FROM next),
     event AS (
       INSERT INTO events (team_id, seq, id, type, created_at, body)
       SELECT $1, named.last_seq, named.id, '${type}', ${source}.at,
              '{"id":"' || named.id || '","type":"${type}","createdAt":' || ${isoOf(`${source}.at`)}
              || ',"data":' || ${data} || '}'
         FROM named, ${source}
       RETURNING id, type, created_at, body),
     fanout AS (
       INSERT INTO webhook_deliveries (team_id, endpoint_id, event_id, type, body, next_attempt_at, created_at)
       SELECT $1, w.id, event.id, event.type, event.body, event.created_at, event.created_at
         FROM event JOIN webhook_endpoints w
           ON w.team_id = $1 AND w.enabled AND (w.types IS NULL OR event.type = ANY (w.types))),
     history AS (
       INSERT INTO record_history (team_id, record, record_id, seq, id, type, at, actor, changes, subject_id)
       SELECT $1, 'work_order', ${history.workOrderId}, named.last_seq, named.id, '${history.type}', ${source}.at,
              $3::jsonb, ${history.changes}, ${history.subjectId}
         FROM named, ${source})`;
}

/** A work order's own event and history entry (`work_order.<action>`), for `outboxOf`. */
const workOrderOutbox = (action: 'created' | 'updated', source: string, data: string, changes: string): string =>
  outboxOf(`work_order.${action}`, source, data, {
    type: action,
    workOrderId: `${source}.id`,
    changes,
    subjectId: 'NULL',
  });

/** The first parameters of every write's statement, as outboxOf() reads them. */
const outboxParams = (teamId: string, actor: string): unknown[] => [teamId, randomBytes(8).toString('hex'), actor];

/**
 * A POST's statement: the team's next number, the insert, its joined read (`j`) with the answer's JSON text
 * (`answer.object`), and the event `work_order.created` with its history entry. A bad link fails its foreign key at
 * the end of the statement (400), and nothing of it stays, the number included. `more` adds CTEs after the event's.
 * Parameters from $4: id, title, description, priority, availability, unit, tenant, contractor.
 */
const CREATE_SQL = (more = '', select = 'SELECT j.* FROM j'): string => `WITH counter AS (
       UPDATE teams SET last_work_order_number = last_work_order_number + 1 WHERE id = $1
       RETURNING last_work_order_number AS n),
     w AS (
       INSERT INTO work_orders (team_id, id, number, title, description, status, priority, availability, self_resolved,
                                resolved_at, intake_channel, unit_id, tenant_id, contractor_id)
       SELECT $1, $4, n, $5, $6, 'reported', $7, $8, false, NULL, 'api', $9, $10, $11 FROM counter
       RETURNING *),
     j AS (${joinedFrom('w')}),
     answer AS (SELECT j.id, j.created_at AS at, ${objectOf(answerFields('j').map((f) => [f.name, f.json]))} AS object FROM j),
     ${workOrderOutbox('created', 'answer', `'{"object":' || answer.object || '}'`, 'NULL::jsonb')}${more}
     ${select}`;

/** A POST's statement, built once. */
const CREATE_ONE_SQL = CREATE_SQL();

function createParams(
  teamId: string,
  input: WorkOrderInput & { title: string; unitId: string },
  actor: string,
): unknown[] {
  return [
    ...outboxParams(teamId, actor),
    randomUUID(),
    input.title,
    input.description ?? null,
    input.priority ?? '2',
    input.availability ?? null,
    input.unitId,
    input.tenantId ?? null,
    input.contractorId ?? null,
  ];
}

/**
 * POST: one statement in autocommit (CREATE_SQL): the number, the insert and its joined read, the event with its
 * body built in SQL, the webhook fan-out and the history entry. The answer is the statement's joined row.
 */
export async function createWorkOrder(
  pool: pg.Pool,
  teamId: string,
  input: WorkOrderInput & { title: string; unitId: string },
  actor: string,
): Promise<{ data: Record<string, unknown> }> {
  const { rows } = await named<WorkOrderRow>(pool, CREATE_ONE_SQL, createParams(teamId, input, actor));
  if (!rows[0]) throw new Error(`team ${teamId} does not exist`);
  return { data: toResponse(rows[0]) };
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
 * The stored answer of an idempotent POST, in CREATE_SQL's statement: the answer's text `{"data":…}` built in SQL
 * and its entity tag (entityTagOf() in SQL: SHA-256 in base64url, 27 characters), replacing only an expired
 * answer: `stored` is false when another request's answer was committed after the claim's snapshot was taken (the
 * claim and the read are one statement, whose snapshot precedes the lock). Parameters from $12: key, path,
 * fingerprint.
 */
const CREATE_ONCE_SQL = CREATE_SQL(
  `,
     sent AS (SELECT '{"data":' || object || '}' AS body FROM answer),
     stored AS (
       INSERT INTO idempotency_keys AS k (team_id, key, method, path, fingerprint, status, body, entity_tag, created_at)
       SELECT $1, $12, 'POST', $13, $14, 201, body,
              '"' || translate(left(encode(sha256(convert_to(body, 'UTF8')), 'base64'), 27), '+/', '-_') || '"', now()
         FROM sent
       ON CONFLICT (team_id, key) DO UPDATE SET method = excluded.method, path = excluded.path,
         fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
         entity_tag = excluded.entity_tag, created_at = excluded.created_at
         WHERE k.created_at <= now() - interval '24 hours'
       RETURNING 1)`,
  'SELECT body, EXISTS (SELECT FROM stored) AS stored FROM sent',
);

/**
 * POST with an Idempotency-Key, as the service stores it: in one transaction, one statement claims the key with an
 * advisory lock (409 when held) and reads a stored answer (replayed, or 422 for another request); then one
 * statement does all of a POST's (createWorkOrder) and stores the answer. BEGIN, claim-and-read, write, COMMIT.
 * The floor may skip the service's savepoint: a failed insert rolls back the whole transaction and is not stored
 * (the service stores 4xx answers; the benchmark's bodies are all valid).
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
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = await inTransaction(pool, async (client): Promise<StoredAnswer | undefined> => {
      const claim = await named<{
        taken: boolean;
        method: string | null;
        path: string | null;
        fingerprint: string | null;
        status: number | null;
        body: string | null;
      }>(
        client,
        `SELECT claim.taken, k.method, k.path, k.fingerprint, k.status, k.body
           FROM (SELECT pg_try_advisory_xact_lock(hashtext($1), hashtext($2)) AS taken) claim
           LEFT JOIN idempotency_keys k
             ON claim.taken AND k.team_id = $1::uuid AND k.key = $2 AND k.created_at > now() - interval '24 hours'`,
        [teamId, key],
      );
      const previous = claim.rows[0];
      if (!previous?.taken) throw new HttpError(409, 'A request with this Idempotency-Key is still in progress');
      if (previous.body !== null) {
        if (previous.method !== 'POST' || previous.path !== path || previous.fingerprint !== fingerprint)
          throw new HttpError(422, 'This Idempotency-Key was used with a different request');
        return { status: previous.status ?? 201, body: previous.body, replayed: true };
      }
      const { rows } = await named<{ body: string; stored: boolean }>(client, CREATE_ONCE_SQL, [
        ...createParams(teamId, input, actor),
        key,
        path,
        fingerprint,
      ]);
      if (!rows[0]) throw new Error(`team ${teamId} does not exist`);
      // Another request's answer came in between the claim's snapshot and its lock: undo this one, and replay it.
      if (!rows[0].stored) throw new RaceLost();
      return { status: 201, body: rows[0].body, replayed: false };
    }).catch((error: unknown) => {
      if (error instanceof RaceLost) return undefined;
      throw error;
    });
    if (answer) return answer;
  }
  throw new HttpError(409, 'A request with this Idempotency-Key is still in progress');
}

/** The idempotent POST's write found a fresh answer stored for its key: its transaction is rolled back. */
class RaceLost extends Error {}

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

/** The answer's fields before and after the update, in toResponse()'s order. */
const BEFORE = answerFields('prev');
const AFTER = answerFields('cur');
/** The fields `previousAttributes` compares (as the service's previousAttributes(): all but updatedAt). */
const COMPARED = AFTER.flatMap((field, index) => (field.name === 'updatedAt' ? [] : [index]));

/**
 * A PUT's statement: the row locked and read (`old`), the UPDATE deciding on old's status (the move allowed, or no
 * row updated: 404 or 409 after), the joined reads before and after, and the event `work_order.updated` with its
 * `previousAttributes` (the changed fields' values before, as the service's previousAttributes() finds them) and
 * its history entry (`{field: {from, to}}`). Parameters from $4: id, the status asked for (or NULL), the
 * statuses it may move from to it, the time (`resolvedAt` of a completion), then the plain fields' values (`sets`;
 * `contractorAfter`: the contractor after).
 */
function updateSql(sets: string[], contractorAfter: string): string {
  // $5 NULL (no status asked for) or old's status: no move, the status fields kept.
  const stays = `coalesce($5::text, old.status) = old.status`;
  const moves = [
    `status = coalesce($5::text, old.status)`,
    `resolved_at = CASE WHEN ${stays} THEN old.resolved_at WHEN $5::text = 'completed' THEN $7::timestamptz
                        WHEN old.status = 'completed' THEN NULL ELSE old.resolved_at END`,
    `self_resolved = CASE WHEN ${stays} THEN old.self_resolved WHEN $5::text = 'completed' THEN ${contractorAfter} IS NULL
                          WHEN old.status = 'completed' THEN false ELSE old.self_resolved END`,
  ];
  // `a…`: each field's JSON text after; `b…`: its JSON text before, only for a field whose columns changed (a
  // value's columns differ exactly when its JSON text does: every time is timestamptz(3), a link's columns are all
  // NULL when it is), else NULL.
  const texts = [
    ...AFTER.map((field, i) => `${field.json} AS a${i}`),
    ...COMPARED.map((i) => {
      const columns = (r: string): string => `(${AFTER[i].columns.map((column) => `${r}.${column}`).join(', ')})`;
      return `CASE WHEN ${columns('prev')} IS DISTINCT FROM ${columns('cur')} THEN ${BEFORE[i].json} END AS b${i}`;
    }),
  ];
  const object = objectOf(AFTER.map((field, i) => [field.name, `diff.a${i}`]));
  const previous = `'{' || concat_ws(',', ${COMPARED.map((i) => `'"${AFTER[i].name}":' || diff.b${i}`).join(', ')}) || '}'`;
  const changes = `('{' || concat_ws(',', ${COMPARED.map(
    (i) => `'"${AFTER[i].name}":{"from":' || diff.b${i} || ',"to":' || diff.a${i} || '}'`,
  ).join(', ')}) || '}')::jsonb`;
  return `WITH old AS (SELECT * FROM work_orders WHERE team_id = $1 AND id = $4 FOR UPDATE),
     w AS (
       UPDATE work_orders w
          SET ${[
            ...sets,
            ...moves,
            // updated_at moves forward on every PUT, even within one millisecond, as the service's does.
            "updated_at = greatest(clock_timestamp(), old.updated_at + interval '1 millisecond')",
          ].join(',\n              ')}
         FROM old
        WHERE w.team_id = old.team_id AND w.id = old.id AND (${stays} OR old.status = ANY ($6::text[]))
       RETURNING w.*),
     prev AS (${joinedFrom('old')}),
     cur AS (${joinedFrom('w')}),
     diff AS (SELECT cur.id, cur.updated_at AS at, ${texts.join(',\n              ')} FROM prev, cur),
     ${workOrderOutbox('updated', 'diff', `'{"object":' || ${object} || ',"previousAttributes":' || ${previous} || '}'`, changes)}
     SELECT cur.* FROM cur`;
}

/** Each PUT statement built so far, by the fields it sets (a few shapes: the body's fields that are present). */
const UPDATE_SQL = new Map<string, string>();

/** The most times a PUT tries again when the row changed between its statement and the failure path's read. */
const UPDATE_ATTEMPTS = 10;

/**
 * PUT: one statement in autocommit (updateSql): the row locked and read by the UPDATE itself, the status move
 * decided in SQL on its status (MOVES), the joined read of the new row, the event with `previousAttributes` and the
 * history entry. A bad link fails its foreign key (400). When no row was updated, one read decides 404 or 409.
 */
export async function updateWorkOrder(
  pool: pg.Pool,
  teamId: string,
  id: string,
  input: WorkOrderInput,
  actor: string,
): Promise<unknown> {
  const to = input.status;
  const params: unknown[] = [...outboxParams(teamId, actor), id, to ?? null, to ? fromWhichTo(to) : [], new Date()];
  const sets: string[] = [];
  let contractorAfter = 'old.contractor_id';
  for (const [field, column] of Object.entries(COLUMN_OF)) {
    const value = input[field as keyof WorkOrderInput];
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
    if (column === 'contractor_id') contractorAfter = `$${params.length}::uuid`;
  }
  const shape = `${sets.join(',')}|${contractorAfter}`;
  let sql = UPDATE_SQL.get(shape);
  if (sql === undefined) UPDATE_SQL.set(shape, (sql = updateSql(sets, contractorAfter)));
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
    const { rows } = await named<WorkOrderRow>(pool, sql, params);
    if (rows[0]) return { data: toResponse(rows[0]) };
    const found = await named<{ status: Status }>(
      pool,
      'SELECT status FROM work_orders WHERE team_id = $1 AND id = $2',
      [teamId, id],
    );
    const status = found.rows[0]?.status;
    if (status === undefined) throw new HttpError(404, 'Work order not found');
    if (to !== undefined && to !== status && !MOVES[status].includes(to))
      throw new HttpError(409, `Cannot change status from ${status} to ${to}`);
  }
  throw new HttpError(409, 'The work order is being changed by other requests; retry');
}

/** The statuses a work order may move from to `to` (MOVES read backwards). */
function fromWhichTo(to: Status): Status[] {
  return (Object.keys(MOVES) as Status[]).filter((from) => MOVES[from].includes(to));
}
