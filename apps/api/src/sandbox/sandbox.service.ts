import { ForbiddenException, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, Transactions, type Caller } from '@app/common';
import { AnnouncedWrites } from '../announced-writes.js';
import { RESOURCES } from '../resources.js';
import type { SandboxRecordCounts, SandboxResetResponse } from './dto/sandbox-reset.response.js';
import { loadSamplePortfolio, type KeyActor } from './sample-data.loader.js';
import { SandboxRepository } from './sandbox.repository.js';

export const LIVE_KEY_CANNOT_RESET =
  'POST /v1/sandbox/reset needs a test key (ppk_test_…): a live key cannot reset anything. Make a test key ' +
  'with the dashboard’s "Test mode" switch or `keys create --team <teamId> --test`';

const NOTHING: SandboxRecordCounts = {
  landlords: 0,
  contractors: 0,
  units: 0,
  tenants: 0,
  workOrders: 0,
  workOrderNotes: 0,
};

/** A team's sandbox (CONTRACT "Test mode (sandbox)"): its reset, with or without the sample portfolio. */
@Injectable()
export class SandboxService {
  /** Every registered resource's tables, a table's rows deleted before those they link to. */
  private readonly recordTables: string[];

  constructor(
    private readonly sandboxes: SandboxRepository,
    private readonly transactions: Transactions,
    private readonly moduleRef: ModuleRef,
    private readonly clock: Clock,
    @InjectDataSource() db: DataSource,
  ) {
    // The registry lists a record after those it links to, so the reverse order deletes the linking rows first.
    this.recordTables = RESOURCES.flatMap((resource) => resource.entities)
      .map((entity) => db.getMetadata(entity).tableName)
      .reverse();
  }

  /**
   * Empties the caller's sandbox (records with their notes, attachments and history; imports) and, with
   * `sampleData`, fills it with the sample portfolio, all in one transaction: answered once the data is there.
   * A live key is refused (403). The route's `@TestKeysOnly` refuses it first, before validation; this check stays
   * so that no other caller of the service can ever empty a live team.
   */
  async reset(caller: Caller, sampleData: boolean): Promise<SandboxResetResponse> {
    if (!caller.testMode) throw new ForbiddenException(LIVE_KEY_CANNOT_RESET);
    const author = { type: 'api_key' as const, id: caller.apiKeyId, name: caller.apiKeyName };
    return this.resetTeam(caller.teamId, author, sampleData);
  }

  /** `reset` of the sandbox `teamId`, the sample written as `author`'s (the demo's first run calls it directly). */
  async resetTeam(teamId: string, author: KeyActor, sampleData: boolean): Promise<SandboxResetResponse> {
    const records = await this.transactions.run(async (manager) => {
      await this.sandboxes.empty(teamId, this.recordTables, manager);
      return sampleData ? loadSamplePortfolio(new AnnouncedWrites(this.moduleRef, teamId), author) : NOTHING;
    });
    return { teamId, sampleData, resetAt: new Date(this.clock.now()).toISOString(), records };
  }
}
