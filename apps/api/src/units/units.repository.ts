import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { containsPattern, TeamScopedRepository } from '@app/common';
import type { ListUnitsQuery } from './dto/list-units.query.js';
import { Unit } from './unit.entity.js';

/** Must match the trigram index `units_full_address_trgm` exactly for PostgreSQL to use it. */
const SEARCH_EXPRESSION = 'u.full_address';

@Injectable()
export class UnitsRepository extends TeamScopedRepository<Unit> {
  constructor(@InjectRepository(Unit) repository: Repository<Unit>) {
    super(repository, 'u');
  }

  list(teamId: string, query: ListUnitsQuery): Promise<[Unit[], number]> {
    return this.page(teamId, query, (qb) => {
      const pattern = containsPattern(query.search);
      if (pattern) qb.andWhere(`${SEARCH_EXPRESSION} ILIKE :pattern`, { pattern });
    });
  }

  /**
   * The unit, locked until the transaction ends, so concurrent partial updates each see the other's parts.
   * FOR NO KEY UPDATE (the key never changes) leaves links to the unit free to be added meanwhile.
   */
  findForUpdate(teamId: string, id: string, manager: EntityManager): Promise<Unit | null> {
    return this.query(teamId, (qb) => qb.where('u.id = :id', { id }).setLock('for_no_key_update'), manager).getOne();
  }
}
