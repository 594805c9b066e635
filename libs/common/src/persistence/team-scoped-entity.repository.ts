import { EntityManager, Repository } from 'typeorm';
import type { RowShape } from './row-shape.js';
import { TeamScopedTable, type PagingOptions, type TeamOwned } from './team-scoped.repository.js';
import { ambientManager } from './transactions.js';

/**
 * A resource's repository: `TeamScopedTable` over a TypeORM entity, whose inserts and updates go through the
 * entity's column mapping (domain names in, columns out).
 */
export abstract class TeamScopedRepository<
  TEntity extends TeamOwned,
  TRow extends { id: string },
> extends TeamScopedTable<TRow> {
  protected constructor(
    protected readonly repository: Repository<TEntity>,
    alias: string,
    shape: RowShape,
    paging: PagingOptions = {},
  ) {
    super(repository.manager, alias, shape, paging);
  }

  /** Inserts one of the team's records (the entity maps domain names to columns); a duplicate externalRef is a 409. */
  async insert(teamId: string, values: Omit<TEntity, 'teamId'>, manager?: EntityManager): Promise<void> {
    try {
      await this.repo(manager).insert({ ...values, teamId } as unknown as TEntity);
    } catch (error) {
      throw this.externalRefConflict(error, values);
    }
  }

  /** Updates one of the team's rows; `updated_at` always moves forward, even within one millisecond. False when there is no such row. */
  async update(teamId: string, id: string, values: Partial<TEntity>, manager?: EntityManager): Promise<boolean> {
    try {
      const result = await this.repo(manager)
        .createQueryBuilder()
        .update()
        .set({ ...values, updatedAt: () => "greatest(clock_timestamp(), updated_at + interval '1 millisecond')" })
        .where('team_id = :teamId AND id = :id', { teamId, id })
        .execute();
      return (result.affected ?? 0) > 0;
    } catch (error) {
      throw this.externalRefConflict(error, values);
    }
  }

  private repo(manager = ambientManager()): Repository<TEntity> {
    return manager ? manager.getRepository<TEntity>(this.repository.target) : this.repository;
  }
}
