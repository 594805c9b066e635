import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { historyControllerOf } from './history.controllers.js';
import { historySubjectsOf } from './history-subjects.js';
import { HistoryRepository } from './history.repository.js';
import { HistoryService } from './history.service.js';

/**
 * Every record's history (docs/history.md): `GET /v1/<resource>/{id}/history` for each resource of the given
 * modules (the registration list's), derived from their controllers. The entries are written by the events'
 * statement (@app/common EventsStore.record); this module only reads them.
 */
@Module({})
export class HistoryModule {
  static forResources(modules: Type[]): DynamicModule {
    return {
      module: HistoryModule,
      controllers: historySubjectsOf(modules).map(historyControllerOf),
      providers: [HistoryRepository, HistoryService],
    };
  }
}
