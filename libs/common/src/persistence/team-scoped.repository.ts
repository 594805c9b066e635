import { EntityManager, ObjectLiteral } from 'typeorm';
import { externalRefConflict } from './external-ref-conflict.js';
import { currentListBatch, type ListBatch } from '../pagination/list-batches.js';
import { orderBy, orderColumnOf, type Paging, type PagingOptions, type RowFilter, type RowShape } from './row-shape.js';
import { RememberedByVersion, TEAM_VERSION_SQL } from './remembered-by-version.js';
import { ambientManager, preparedQuery, runInTransaction, runTeamSql } from './transactions.js';
import {
  teamDelete,
  teamInsert,
  teamSelect,
  teamSelectSql,
  teamUpdate,
  type TeamDelete,
  type TeamSelect,
  type TeamSqlOptions,
  type TeamUpdate,
} from './team-sql.js';
import { teamStatement, type Why } from './unscoped-statements.js';

export type { Paging, PagingOptions } from './row-shape.js';

export interface TeamOwned extends ObjectLiteral {
  teamId: string;
  id: string;
}

/** The total of a list, carried on each row of the one statement that reads a page (NULL: the remembered one holds). */
const TOTAL = '__total';
/** The team's change version the statement saw, carried beside it. */
const VERSION = '__version';
/** The team's number of rows when the total was counted (`carriedTotals`), returned with it. */
const SIZE = '__size';
/** True when the page was not read because the remembered one holds. */
const PAGE_KNOWN = '__pageKnown';
/** A batch's order key, carried beside each row (`batchRows`). */
const BATCH_KEY = '__batchKey';

/** A list's exact total, with the team's number of rows it was counted among (`carriedTotals`; else null). */
interface RememberedTotal {
  total: number;
  size: number | null;
}

/** A remembered total is carried over at most this many new rows; more, and the matches are counted again. */
const MAX_CARRIED_ROWS = 1000;

/** How many filters' totals, and how many rows of pages, each resource remembers (a few MiB at most). */
const REMEMBERED_TOTALS = 4096;
const REMEMBERED_PAGE_ROWS = 5000;

/**
 * The one place where team scoping happens, for any team-owned table read and written in SQL. Every statement
 * is built by the team-scoped builders (`team-sql.ts`: `select`, `update`, `remove` here), which add the root
 * table's `team_id = $1` themselves, so no query can forget the team; rows come back in the table's row type
 * (`shape.columns`). The statements the builders cannot express are listed in docs/architecture.md.
 */
export abstract class TeamScopedTable<TRow extends { id: string }> {
  /** Exact totals of this table's lists, and pages of them, by team, request and the team's change version. */
  private readonly totals = new RememberedByVersion<RememberedTotal>(REMEMBERED_TOTALS);
  private readonly pages = new RememberedByVersion<TRow[]>(REMEMBERED_PAGE_ROWS, (rows) => rows.length);
  /** Reads of a changed list under way, by the list and the version its probe found: one read serves them all. */
  private readonly reading = new Map<string, Promise<[TRow[], number]>>();
  private readonly remembers: boolean;
  /** `findOne`'s statement by lock mode (`findOneSql`). */
  private readonly findOneTexts = new Map<string | undefined, string>();

  protected constructor(
    /** The manager used outside a request's transaction (the data source's). */
    protected readonly defaultManager: EntityManager,
    protected readonly alias: string,
    protected readonly shape: RowShape,
    paging: PagingOptions = {},
  ) {
    this.remembers = paging.rememberByVersion ?? true;
  }

  private managerOf(manager?: EntityManager): EntityManager {
    return manager ?? ambientManager() ?? this.defaultManager;
  }

  /** A team-scoped SELECT (`teamSelect`), in the request's transaction when it has one. */
  protected select<R>(
    teamId: string,
    q: TeamSelect,
    params: unknown[] = [],
    manager?: EntityManager,
    options: TeamSqlOptions = {},
  ): Promise<R[]> {
    return teamSelect<R>(this.managerOf(manager), teamId, q, params, options);
  }

  /** A team-scoped UPDATE (`teamUpdate`), in the request's transaction when it has one. */
  protected updateWhere<R>(
    teamId: string,
    q: TeamUpdate,
    params: unknown[] = [],
    manager?: EntityManager,
    options: TeamSqlOptions = {},
  ): Promise<R[]> {
    return teamUpdate<R>(this.managerOf(manager), teamId, q, params, options);
  }

  /** A team-scoped DELETE (`teamDelete`), in the request's transaction when it has one. */
  protected deleteWhere<R>(
    teamId: string,
    q: TeamDelete,
    params: unknown[] = [],
    manager?: EntityManager,
  ): Promise<R[]> {
    return teamDelete<R>(this.managerOf(manager), teamId, q, params);
  }

  /** `teamStatement` (unscoped-statements.ts): a team-scoped shape the builders cannot express, with why it is safe. */
  protected statement<R>(
    teamId: string,
    text: string,
    params: unknown[],
    why: Why,
    manager?: EntityManager,
  ): Promise<R[]> {
    return teamStatement<R>(this.managerOf(manager), teamId, text, params, why);
  }

  /** The team's record `id` in the row type; `lock` (e.g. `FOR NO KEY UPDATE`) holds it until the transaction ends. */
  async findOne(
    teamId: string,
    id: string,
    options: { manager?: EntityManager; lock?: string } = {},
  ): Promise<TRow | undefined> {
    const rows = await runTeamSql<TRow>(this.managerOf(options.manager), teamId, this.findOneSql(options.lock), [id], {
      prepared: true,
    });
    return rows[0];
  }

  /**
   * `findOne`'s statement (`teamSelect`'s text), built once per lock: the same string object every time, so the
   * named statement's lookup by text (`NamedStatements`) hashes and compares it once, not a new ~1 KB text on every
   * read (a new string has no hash yet, and equal texts are compared character by character).
   */
  private findOneSql(lockMode: string | undefined): string {
    let text = this.findOneTexts.get(lockMode);
    if (text === undefined) {
      const { table, columns, joins = '' } = this.shape;
      const a = this.alias;
      const lock = lockMode ? `${lockMode} OF ${a}` : undefined;
      text = teamSelectSql({ from: `${table} ${a}`, columns, joins, where: `${a}.id = $2`, lock });
      this.findOneTexts.set(lockMode, text);
    }
    return text;
  }

  /**
   * One page of the team's rows in the requested order (newest first by default, ties by id), changed since
   * `updatedSince` when given, only the one whose `externalRef` is given, and the exact total, in ONE statement:
   * page and total come from one snapshot, so a concurrent write can never make them disagree. The page's rows are
   * chosen first and only they are shaped (joins, aggregated links), so the select list costs per page, not per match.
   *
   * The total and the page are read only when the team changed since this instance last read the same ones:
   * the statement reads the team's change version and evaluates the count (an InitPlan, run only when
   * referenced) and the page (behind a one-time filter) only when the version differs from the remembered one
   * (`RememberedByVersion`). Inside a transaction both are always read and never remembered: the transaction may
   * see writes of its own whose event is not yet recorded.
   */
  protected async pageRows(teamId: string, paging: Paging, filter: RowFilter = {}): Promise<[TRow[], number]> {
    const batch = currentListBatch();
    if (batch) return [await this.batchRows(teamId, paging, filter, batch), 0];
    const { table } = this.shape;
    const a = this.alias;
    const { conditions, params } = this.conditionsOf(paging, filter);
    const where = conditions.join(' AND ');
    const order = filter.order ?? orderBy(a, paging.sort);
    const count = filter.total ?? `SELECT count(*) AS total FROM ${table} ${a} WHERE ${where}`;
    // A total from a counts table is cheap already; a count of matches is carried forward over new rows.
    const carried = filter.total === undefined ? this.shape.carriedTotals : undefined;
    const filterKey = ambientManager() || !this.remembers ? undefined : `${teamId} ${where} ${JSON.stringify(params)}`;
    const pageKey = filterKey && `${filterKey} ${order} ${paging.pageSize} ${paging.page}`;
    const knownTotal = filterKey === undefined ? undefined : this.totals.get(filterKey);
    const knownPage = pageKey === undefined ? undefined : this.pages.get(pageKey);
    // Both remembered at one version: a prepared probe of the version (planned once) decides, and the statement
    // below, planned for its values on every run, is only needed once the team has changed.
    if (knownTotal && knownPage && knownTotal.version === knownPage.version) {
      // Built by this helper: TEAM_VERSION_SQL reads the team's own row (`s.team_id = $1`).
      const [current] = await runTeamSql<{ v: string | null }>(
        this.managerOf(),
        teamId,
        `SELECT (${TEAM_VERSION_SQL}) AS v`,
        [],
        { prepared: true },
      );
      if (current?.v === knownPage.version) return [knownPage.value, knownTotal.value.total];
      // The team changed. Requests that found the same new version share one read of it (one count, not one each:
      // after a write, every reader of a busy list arrives at once). Same version, same records: the same answer.
      const flight = current?.v ? `${pageKey} @${current.v}` : undefined;
      const sharing = flight && this.reading.get(flight);
      if (sharing) return sharing;
      const read = this.readPage(teamId, paging, {
        where,
        params,
        order,
        count,
        carried,
        filterKey,
        pageKey,
        knownTotal,
        knownPage,
      });
      if (flight) {
        this.reading.set(flight, read);
        const done = (): void => void this.reading.delete(flight);
        read.then(done, done);
      }
      return read;
    }
    const list = { where, params, order, count, carried, filterKey, pageKey, knownTotal, knownPage };
    return this.readPage(teamId, paging, list);
  }

  /** `pageRows` past its remembered answer: the page and total in one statement, each run only if not known. */
  private async readPage(
    teamId: string,
    paging: Paging,
    list: {
      where: string;
      params: unknown[];
      order: string;
      count: string;
      carried?: RowShape['carriedTotals'];
      filterKey?: string;
      pageKey?: string;
      knownTotal?: { version: string; value: RememberedTotal };
      knownPage?: { version: string; value: TRow[] };
    },
  ): Promise<[TRow[], number]> {
    const { table, columns, joins = '' } = this.shape;
    const a = this.alias;
    const { where, order, count, carried, filterKey, pageKey, knownTotal, knownPage } = list;
    const params = [...list.params];
    const n =
      params.push(
        paging.pageSize,
        (paging.page - 1) * paging.pageSize,
        knownTotal?.version ?? null,
        knownPage?.version ?? null,
      ) - 2; // $n is the first of the four (the team is $1, params[i] is $(i + 2))
    let totalSql = `CASE WHEN v = $${n + 2}::text THEN NULL ELSE (${count}) END`;
    let size = 'NULL::bigint';
    if (carried) {
      size = `(${carried.size})`;
      const base = knownTotal?.value.size == null ? undefined : knownTotal;
      if (base) {
        // The remembered total's team had `size` rows at `last_seq` s0. Now, in the same snapshot as the page: when
        // every event since s0 is the creation of one of this table's rows (no gap: as many events as numbers) and
        // the team has exactly that many rows more, nothing but those new rows changed, and the total is the old one
        // plus the new rows that match. Anything else counts again: an event of another type (an update, a delete,
        // any other record's change), or a row count that disagrees (rows deleted with no event, as a sandbox reset
        // does, and nothing but creates after it). Events are read by the team's primary key (team_id, seq); the new
        // rows by id.
        const k = params.push(Number(base.version.split('.')[0]), base.value.size, base.value.total, carried.created);
        const [s0, size0, total0, created] = [k - 2, k - 1, k, k + 1].map((i) => `$${i}`);
        const seq = `split_part(v, '.', 1)::bigint`;
        const since = `FROM events e WHERE e.team_id = $1 AND e.seq > ${s0}::bigint AND e.seq <= ${seq}`;
        totalSql = `CASE WHEN v = $${n + 2}::text THEN NULL
          WHEN ${seq} - ${s0}::bigint BETWEEN 1 AND ${MAX_CARRIED_ROWS}
           AND (SELECT count(*) = ${seq} - ${s0}::bigint AND bool_and(e.type = ${created}::text) ${since})
           AND ${size} = ${size0}::bigint + (${seq} - ${s0}::bigint)
          THEN ${total0}::bigint + (SELECT count(*) FROM ${table} ${a} WHERE ${where} AND ${a}.id IN (
            SELECT (e.body::json #>> '{data,object,id}')::uuid ${since}))
          ELSE (${count}) END`;
      }
    }
    // Built here with the root table's `team_id = $1` first among `conditions`, and the version read by the team.
    const rows = await runTeamSql<
      TRow & { [TOTAL]: string | null; [SIZE]: string | null; [VERSION]: string | null; [PAGE_KNOWN]: boolean }
    >(
      this.managerOf(),
      teamId,
      `WITH version AS (SELECT (${TEAM_VERSION_SQL}) AS v),
       total AS (SELECT v AS version, ${totalSql} AS total, ${size} AS size,
                        coalesce(v = $${n + 3}::text, false) AS page_known FROM version),
       page AS (SELECT ${a}.* FROM ${table} ${a}
                WHERE NOT coalesce((SELECT v FROM version) = $${n + 3}::text, false) AND ${where}
                ORDER BY ${order} LIMIT $${n} OFFSET $${n + 1})
       SELECT total.version AS "${VERSION}", total.total AS "${TOTAL}", total.size AS "${SIZE}",
              total.page_known AS "${PAGE_KNOWN}", ${columns}
       FROM total LEFT JOIN ${joins ? `(page ${a} ${joins})` : `page ${a}`} ON true
       ORDER BY ${order}`,
      params,
    );
    const [first] = rows;
    const version = first[VERSION];
    // The total is NULL only when the version is the remembered one (the count was not run); so for the page.
    const total = first[TOTAL] === null && knownTotal ? knownTotal.value.total : Number(first[TOTAL] ?? 0);
    if (filterKey !== undefined && version !== null && first[TOTAL] !== null) {
      this.totals.remember(filterKey, version, { total, size: first[SIZE] === null ? null : Number(first[SIZE]) });
    }
    if (first[PAGE_KNOWN] && knownPage) return [knownPage.value, total];
    // An empty page is one row of nulls beside the total (the LEFT JOIN keeps the total).
    const page = first.id === null ? [] : rows;
    if (pageKey !== undefined && version !== null) this.pages.remember(pageKey, version, page);
    return [page, total];
  }

  /** A list's conditions (the team's first) and their parameters (`$2`…): its filter, `updatedSince`, `externalRef`. */
  private conditionsOf(paging: Paging, filter: RowFilter): { conditions: string[]; params: unknown[] } {
    const a = this.alias;
    const params = [...(filter.params ?? [])];
    const conditions = [`${a}.team_id = $1`];
    if (filter.where) conditions.push(filter.where);
    if (paging.updatedSince) conditions.push(`${a}.updated_at >= $${params.push(paging.updatedSince) + 1}`);
    // Served by the unique index `(team_id, external_ref) WHERE external_ref IS NOT NULL`: `=` implies NOT NULL.
    if (paging.externalRef !== undefined) {
      conditions.push(`${a}.external_ref = $${params.push(paging.externalRef) + 1}`);
    }
    return { conditions, params };
  }

  /**
   * The `batch.size` rows of the list that follow `batch.after` in its order (`pageRows` inside `inListBatch`):
   * keyset batches over the list's `(created_at|updated_at, id)` order, each one statement served by the same
   * indexes as a page, never an OFFSET and never a count. The key is carried at full precision (microseconds), so
   * no row between two batches is skipped or read twice. Nothing is remembered: an export reads what is there.
   */
  private async batchRows(teamId: string, paging: Paging, filter: RowFilter, batch: ListBatch): Promise<TRow[]> {
    if (filter.order) throw new Error(`${this.shape.table}: a list in its own order cannot be read in batches`);
    const { table, columns, joins = '' } = this.shape;
    const a = this.alias;
    const { conditions, params } = this.conditionsOf(paging, filter);
    const { column, descending } = orderColumnOf(paging.sort);
    if (batch.after) {
      const key = `$${params.push(batch.after.key) + 1}::timestamptz`;
      const id = `$${params.push(batch.after.id) + 1}::uuid`;
      conditions.push(`(${a}.${column}, ${a}.id) ${descending ? '<' : '>'} (${key}, ${id})`);
    }
    const order = orderBy(a, paging.sort);
    const limit = `$${params.push(batch.size) + 1}`;
    // Built here with the root table's `team_id = $1` first among `conditions`.
    const rows = await runTeamSql<TRow & { [BATCH_KEY]: string }>(
      this.managerOf(),
      teamId,
      `SELECT ${columns}, to_char(${a}.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "${BATCH_KEY}"
       FROM (SELECT ${a}.* FROM ${table} ${a} WHERE ${conditions.join(' AND ')} ORDER BY ${order} LIMIT ${limit})
            ${a} ${joins}
       ORDER BY ${order}`,
      params,
    );
    const last = rows.at(-1);
    batch.last = last && { key: last[BATCH_KEY], id: last.id };
    for (const row of rows) delete (row as Partial<typeof row>)[BATCH_KEY];
    return rows;
  }

  /**
   * Inserts one row of the team (`team_id` is set to the team by construction) from column names to values, and
   * answers what `returning` (written against the alias) reads of it.
   */
  protected async insertRow<R>(
    teamId: string,
    values: Record<string, unknown>,
    returning: string,
    manager?: EntityManager,
    options: TeamSqlOptions = {},
  ): Promise<R> {
    const columns = Object.keys(values);
    const [row] = await teamInsert<R>(
      this.managerOf(manager),
      teamId,
      { into: `${this.shape.table} ${this.alias}`, columns, returning },
      Object.values(values),
      options,
    );
    return row;
  }

  /**
   * Serialises `purpose` for the team until the transaction ends (e.g. checking a per-team limit and then
   * inserting): a transaction-scoped advisory lock on the team's id and the purpose, which reads no table.
   */
  async lockTeam(teamId: string, purpose: string, manager: EntityManager): Promise<void> {
    await preparedQuery(manager, `SELECT pg_advisory_xact_lock(hashtext($2 || ':' || $1))`, [teamId, purpose]);
  }

  /** A write's failure as the caller sees it (`externalRefConflict`), for a repository's own SQL writes. */
  protected externalRefConflict(error: unknown, values: object): unknown {
    const { externalRef } = values as { externalRef?: unknown };
    return externalRefConflict(error, this.shape.table, this.shape.record, externalRef);
  }

  /** Which of `ids` are the team's records. */
  async existingIds(teamId: string, ids: string[], manager?: EntityManager): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const from = `${this.shape.table} ${this.alias}`;
    const where = `${this.alias}.id = ANY ($2::uuid[])`;
    const rows = await this.select<{ id: string }>(
      teamId,
      { from, columns: `${this.alias}.id`, where },
      [ids],
      manager,
      { prepared: true },
    );
    return new Set(rows.map((row) => row.id));
  }

  /** Locks the team's record until the transaction ends (no other write or delete meanwhile); false when there is none. */
  async lock(teamId: string, id: string, manager?: EntityManager): Promise<boolean> {
    const from = `${this.shape.table} ${this.alias}`;
    const where = `${this.alias}.id = $2`;
    const rows = await this.select(
      teamId,
      { from, columns: `${this.alias}.id`, where, lock: 'FOR UPDATE' },
      [id],
      manager,
      { prepared: true },
    );
    return rows.length > 0;
  }

  /** Deletes the team's record; false when there is none. */
  async delete(teamId: string, id: string, manager?: EntityManager): Promise<boolean> {
    // With `returning`, through a CTE: TypeORM answers a bare DELETE with [rows, count] instead of the rows.
    const from = `${this.shape.table} ${this.alias}`;
    const rows = await this.deleteWhere(
      teamId,
      { from, where: `${this.alias}.id = $2`, returning: `${this.alias}.id` },
      [id],
      manager,
    );
    return rows.length > 0;
  }

  /**
   * Deletes the team's record once `check` — run with the record locked, in the same transaction — allows it
   * (it throws to refuse, e.g. a 409 while other records refer to this one); false when there is none.
   */
  async deleteChecked(teamId: string, id: string, check: () => Promise<void>): Promise<boolean> {
    const work = async (): Promise<boolean> => {
      if (!(await this.lock(teamId, id))) return false;
      await check();
      return this.delete(teamId, id);
    };
    return ambientManager() ? work() : runInTransaction(this.defaultManager.connection, work);
  }
}
