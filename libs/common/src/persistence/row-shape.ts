import type { PageQuery } from '../pagination/page.query.js';
import type { ListSort } from '../pagination/page.query.js';

/** A timestamptz as the API's text (UTC ISO 8601 with milliseconds), so rows carry strings, not `Date`s. */
export const isoTimestamp = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** How a resource is read: the one select list that makes its row type, and the joins that list needs. */
export interface RowShape {
  table: string;
  /** Written against the repository's alias; camelCase aliases (`first_name AS "firstName"`) name the row's fields. */
  columns: string;
  /** Joins the select list reads from; each must match on the alias's `team_id`. */
  joins?: string;
  /** The record's name in words, lowercase (`invoice line`), for messages such as a duplicate `externalRef`'s. */
  record?: string;
  /**
   * How a list's remembered exact total is carried forward when the team's only changes since it was counted are new
   * rows of this table, instead of counting every match again (docs/performance.md, "Search under writes"):
   * `created`, the event type each new row's write records (the record's `.created`); `size`, SQL for the team's
   * number of rows, cheap (a counts table kept by a trigger) and against `team_id = $1`. Without it, any change counts
   * again. Only for a table whose lists filter on its own columns alone (no other table, no clock), whose every
   * `created` event comes with exactly one new row, that row's id in the event's `data.object.id`.
   */
  carriedTotals?: { created: string; size: string };
}

/** Narrows a list: `where` is ANDed after `team_id = $1`, its parameters are `$2`…, in `params` order. */
export interface RowFilter {
  where?: string;
  params?: unknown[];
  /**
   * SQL giving the exact total over the same parameters, when the caller can count cheaper than `count(*)`
   * over the filter (e.g. from a counts table). It must compare `team_id` with `$1` too.
   */
  total?: string;
  /**
   * The ORDER BY, written against the alias, when the list has its own fixed order instead of `sort` (a record's
   * history: `h.seq DESC`). It must be total (a unique key last), or pages could overlap.
   */
  order?: string;
}

/** A list's conditions and their parameters, numbered after the team's `$1`. */
export class FilterBuilder {
  private readonly conditions: string[] = [];
  private readonly params: unknown[] = [];

  /** The placeholder that binds `value`. */
  bind(value: unknown): string {
    return `$${this.params.push(value) + 1}`;
  }

  /** ANDs a condition (its values bound with `bind`). */
  and(condition: string): this {
    this.conditions.push(condition);
    return this;
  }

  build(total?: (where: string) => string): RowFilter {
    const where = this.conditions.join(' AND ');
    return { where, params: [...this.params], total: total?.(where) };
  }
}

/** The ORDER BY of a list; the `(team_id, created_at|updated_at DESC, id DESC)` indexes serve both directions. */
export function orderBy(alias: string, sort: ListSort = '-createdAt'): string {
  const { column, descending } = orderColumnOf(sort);
  const direction = descending ? 'DESC' : 'ASC';
  return `${alias}.${column} ${direction}, ${alias}.id ${direction}`;
}

/** The timestamp column a list is ordered by (ties by `id` in the same direction), and the direction. */
export function orderColumnOf(sort: ListSort = '-createdAt'): {
  column: 'created_at' | 'updated_at';
  descending: boolean;
} {
  return { column: sort.endsWith('updatedAt') ? 'updated_at' : 'created_at', descending: sort.startsWith('-') };
}

/** A page, and optionally an order (newest first by default), a lower bound on `updatedAt`, an `external_ref`. */
export type Paging = Pick<PageQuery, 'page' | 'pageSize'> &
  Partial<Pick<PageQuery, 'sort' | 'updatedSince' | 'externalRef'>>;

/** How a table's lists are paged (`TeamScopedTable.pageRows`). */
export interface PagingOptions {
  /**
   * Remember totals and pages by the team's change version (the default). Only for tables every write to which
   * records an event in its transaction (the resources): an event moves the version. A table written without
   * events (webhook endpoints, deliveries) reads its page and total on every request.
   */
  rememberByVersion?: boolean;
}
