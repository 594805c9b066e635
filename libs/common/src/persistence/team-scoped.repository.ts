import { EntityManager, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import type { PageQuery } from '../pagination/page.query.js';

export interface TeamOwned extends ObjectLiteral {
  teamId: string;
  id: string;
}

/**
 * The one place where team scoping happens. Resource repositories extend this and build every query through
 * `query()`, which ANDs `team_id = :teamId` onto whatever the caller adds, last, so a later `.where()` cannot
 * drop it. Writes take the team as their first argument and put it in the WHERE clause or the row.
 */
export abstract class TeamScopedRepository<T extends TeamOwned> {
  protected constructor(
    protected readonly repository: Repository<T>,
    protected readonly alias: string,
  ) {}

  protected repo(manager?: EntityManager): Repository<T> {
    return manager ? manager.getRepository<T>(this.repository.target) : this.repository;
  }

  /** A SELECT over the team's rows; `shape` adds joins, filters and order. */
  protected query(
    teamId: string,
    shape: (qb: SelectQueryBuilder<T>) => void = () => undefined,
    manager?: EntityManager,
  ): SelectQueryBuilder<T> {
    const qb = this.repo(manager).createQueryBuilder(this.alias);
    shape(qb);
    return qb.andWhere(`${this.alias}.team_id = :scopeTeamId`, { scopeTeamId: teamId });
  }

  /**
   * One page, newest first (ties by id), plus the exact total: two round trips, run side by side.
   * `filter` narrows both; `select` (joins, column choice) shapes only the page, so the total is a plain
   * `COUNT(*)` over the filtered rows. `total` replaces that count when the caller can know it cheaper.
   */
  protected async page(
    teamId: string,
    paging: Pick<PageQuery, 'page' | 'pageSize'>,
    filter: (qb: SelectQueryBuilder<T>) => void,
    options: { select?: (qb: SelectQueryBuilder<T>) => void; total?: () => Promise<number> } = {},
  ): Promise<[T[], number]> {
    const rows = this.query(teamId, (qb) => {
      options.select?.(qb);
      filter(qb);
    })
      .orderBy(`${this.alias}.created_at`, 'DESC')
      .addOrderBy(`${this.alias}.id`, 'DESC')
      .offset((paging.page - 1) * paging.pageSize)
      .limit(paging.pageSize)
      .getMany();
    const total = options.total ? options.total() : this.count(teamId, filter);
    return Promise.all([rows, total]);
  }

  /** `COUNT(*)` of the team's rows that pass `filter` (TypeORM's getCount() counts DISTINCT keys: slower). */
  protected async count(teamId: string, filter: (qb: SelectQueryBuilder<T>) => void): Promise<number> {
    const row = await this.query(teamId, filter).select('COUNT(*)', 'total').getRawOne<{ total: string }>();
    return Number(row?.total ?? 0);
  }

  /**
   * Hand-written SQL for hot paths. The team is always bound as `$1` (the caller's parameters follow as `$2`…),
   * and the text must compare a `team_id` with `$1`, so raw SQL cannot skip the scoping either.
   */
  protected async teamSql<R>(
    teamId: string,
    text: string,
    params: unknown[] = [],
    manager?: EntityManager,
  ): Promise<R[]> {
    if (!/team_id = \$1\b/.test(text)) throw new Error('team-scoped SQL must compare team_id with $1');
    return this.repo(manager).manager.query<R[]>(text, [teamId, ...params]);
  }

  /**
   * One page of the team's rows in hand-written SQL, newest first, with `extra` columns (e.g. aggregated links,
   * written against the alias `page`) computed for that page only, and the exact total beside it: two
   * statements run side by side. `filter` is ANDed after `team_id = $1`; its parameters start at `$2`.
   */
  protected pageSql<R>(
    teamId: string,
    paging: Pick<PageQuery, 'page' | 'pageSize'>,
    shape: { table: string; filter?: string; filterParams?: unknown[]; extra?: string },
  ): Promise<[R[], number]> {
    const { table, filter = '', filterParams = [], extra } = shape;
    const where = `${this.alias}.team_id = $1 ${filter}`;
    const limit = filterParams.length + 2;
    const rows = this.teamSql<R>(
      teamId,
      `WITH page AS (
         SELECT * FROM ${table} ${this.alias} WHERE ${where}
         ORDER BY ${this.alias}.created_at DESC, ${this.alias}.id DESC LIMIT $${limit} OFFSET $${limit + 1})
       SELECT page.*${extra ? `, ${extra}` : ''} FROM page ORDER BY page.created_at DESC, page.id DESC`,
      [...filterParams, paging.pageSize, (paging.page - 1) * paging.pageSize],
    );
    const total = this.teamSql<{ total: string }>(
      teamId,
      `SELECT count(*) AS total FROM ${table} ${this.alias} WHERE ${where}`,
      filterParams,
    ).then((result) => Number(result[0]?.total ?? 0));
    return Promise.all([rows, total]);
  }

  async findOne(teamId: string, id: string, manager?: EntityManager): Promise<T | null> {
    return this.query(teamId, (qb) => qb.where(`${this.alias}.id = :id`, { id }), manager).getOne();
  }

  /** Which of `ids` belong to the team. */
  async existingIds(teamId: string, ids: string[], manager?: EntityManager): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.query(
      teamId,
      (qb) => qb.select(`${this.alias}.id`, 'id').where(`${this.alias}.id IN (:...ids)`, { ids }),
      manager,
    ).getRawMany<{ id: string }>();
    return new Set(rows.map((row) => row.id));
  }

  async insert(teamId: string, values: Omit<T, 'teamId'>, manager?: EntityManager): Promise<void> {
    await this.repo(manager).insert({ ...values, teamId } as unknown as T);
  }

  /** Updates one of the team's rows; `updated_at` always moves forward, even within one millisecond. False when there is no such row. */
  async update(teamId: string, id: string, values: Partial<T>, manager?: EntityManager): Promise<boolean> {
    const result = await this.repo(manager)
      .createQueryBuilder()
      .update()
      .set({ ...values, updatedAt: () => "greatest(clock_timestamp(), updated_at + interval '1 millisecond')" })
      .where('team_id = :teamId AND id = :id', { teamId, id })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
