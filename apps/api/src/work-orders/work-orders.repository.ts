import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { containsPattern, Team, TeamScopedRepository } from '@app/common';
import { Contractor } from '../contractors/contractor.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { Unit } from '../units/unit.entity.js';
import type { ListWorkOrdersQuery } from './dto/list-work-orders.query.js';
import { WorkOrder } from './work-order.entity.js';

/** Must match the trigram index `work_orders_search_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION = '(w.title || chr(31) || w.code)';

export type NewWorkOrder = Omit<WorkOrder, 'teamId' | 'number' | 'code' | 'createdAt' | 'updatedAt'>;

/**
 * The unit, tenant and contractor come with the work order in one query, each joined on the work order's own
 * team so a link can never reach another team's row.
 */
function withLinks(qb: SelectQueryBuilder<WorkOrder>): void {
  qb.leftJoinAndMapOne('w.unit', Unit, 'u', 'u.team_id = w.team_id AND u.id = w.unit_id')
    .leftJoinAndMapOne('w.tenant', Tenant, 't', 't.team_id = w.team_id AND t.id = w.tenant_id')
    .leftJoinAndMapOne('w.contractor', Contractor, 'c', 'c.team_id = w.team_id AND c.id = w.contractor_id')
    // Only what the response shows: selecting all of `c` would also run its completedJobs count per row.
    .select(['w', 'u.id', 'u.fullAddress', 't.id', 't.firstName', 't.lastName', 't.email', 'c.id', 'c.companyName']);
}

@Injectable()
export class WorkOrdersRepository extends TeamScopedRepository<WorkOrder> {
  constructor(@InjectRepository(WorkOrder) repository: Repository<WorkOrder>) {
    super(repository, 'w');
  }

  list(teamId: string, query: ListWorkOrdersQuery): Promise<[WorkOrder[], number]> {
    const countedByStatusAndPriority = !query.search && !query.unitId && !query.tenantId && !query.contractorId;
    return this.page(
      teamId,
      query,
      (qb) => {
        const pattern = containsPattern(query.search);
        if (pattern) qb.andWhere(`${SEARCH_EXPRESSION} ILIKE :pattern`, { pattern });
        if (query.status?.length) qb.andWhere('w.status IN (:...statuses)', { statuses: query.status });
        if (query.priority?.length) qb.andWhere('w.priority IN (:...priorities)', { priorities: query.priority });
        if (query.unitId) qb.andWhere('w.unit_id = :unitId', { unitId: query.unitId });
        if (query.tenantId) qb.andWhere('w.tenant_id = :tenantId', { tenantId: query.tenantId });
        if (query.contractorId) qb.andWhere('w.contractor_id = :contractorId', { contractorId: query.contractorId });
      },
      {
        select: withLinks,
        total: countedByStatusAndPriority ? () => this.countByStatusAndPriority(teamId, query) : undefined,
      },
    );
  }

  /**
   * The exact number of the team's work orders with the given statuses and priorities (all when none), read
   * from `work_order_counts`, which a trigger keeps in the same transaction as every write.
   */
  private async countByStatusAndPriority(teamId: string, query: ListWorkOrdersQuery): Promise<number> {
    const rows: { total: string | null }[] = await this.repository.manager.query(
      `SELECT sum(count) AS total FROM work_order_counts
        WHERE team_id = $1
          AND ($2::text[] IS NULL OR status = ANY ($2))
          AND ($3::text[] IS NULL OR priority = ANY ($3))`,
      [teamId, query.status?.length ? query.status : null, query.priority?.length ? query.priority : null],
    );
    return Number(rows[0]?.total ?? 0);
  }

  /** One work order with its unit, tenant and contractor. */
  findWithLinks(teamId: string, id: string, manager?: EntityManager): Promise<WorkOrder | null> {
    return this.query(
      teamId,
      (qb) => {
        withLinks(qb);
        qb.where('w.id = :id', { id });
      },
      manager,
    ).getOne();
  }

  /** The bare row, locked until the transaction of `manager` ends, so concurrent updates apply one after another. */
  findForUpdate(teamId: string, id: string, manager: EntityManager): Promise<WorkOrder | null> {
    return this.query(teamId, (qb) => qb.where('w.id = :id', { id }), manager)
      .setLock('pessimistic_write')
      .getOne();
  }

  /**
   * Inserts with the team's next number. The counter row stays locked until commit, which serialises a team's
   * creates; if the insert fails, the rollback returns the number, so codes have no gaps.
   */
  async insertNumbered(teamId: string, values: NewWorkOrder): Promise<void> {
    await this.repository.manager.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(Team)
        .set({ lastWorkOrderNumber: () => 'last_work_order_number + 1' })
        .where('id = :teamId', { teamId })
        .returning('last_work_order_number')
        .execute();
      const [counter] = result.raw as { last_work_order_number: number }[];
      if (!counter) throw new Error(`team ${teamId} does not exist`);
      await this.insert(
        teamId,
        { ...values, number: counter.last_work_order_number } as Omit<WorkOrder, 'teamId'>,
        manager,
      );
    });
  }

  /** Runs `work` in one transaction. */
  transaction<R>(work: (manager: EntityManager) => Promise<R>): Promise<R> {
    return this.repository.manager.transaction(work);
  }
}
