import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { pageOf, type ConditionalSource, type Page, type Paging } from '@app/common';
import { HistoryEntryResponse } from './dto/history-entry.response.js';
import type { HistorySubject } from './history-subjects.js';
import { HistoryRepository } from './history.repository.js';

@Injectable()
export class HistoryService {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly history: HistoryRepository,
  ) {}

  /**
   * One page of the record's history, newest first; 404 as GET one answers it when the team has no such record.
   * A record's history is deleted by the statement that announces its deletion, so entries prove the record
   * exists (the page and its total come from one snapshot); only an empty history asks the resource itself (a
   * missing record, another team's, or one created before histories were kept).
   */
  async page(teamId: string, subject: HistorySubject, id: string, paging: Paging): Promise<Page<HistoryEntryResponse>> {
    const [rows, total] = await this.history.list(teamId, subject.record, id, paging);
    if (total === 0) {
      const source = this.moduleRef.get<ConditionalSource>(subject.resource.source, { strict: false });
      await source.get(teamId, id);
    }
    return pageOf(
      rows.map((row) => HistoryEntryResponse.from(row)),
      total,
      paging,
    );
  }
}
