import { Injectable, Logger, BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { Clock, AppConfig, type Caller, RequestUsage } from '@app/common';
import { UsageRepository, type RequestLogRow } from './usage.repository.js';

export type StatusClass = '2xx-3xx' | '4xx' | '429' | '5xx';

export function statusClassOf(status: number): StatusClass {
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  return '2xx-3xx';
}

/** How long usage is kept: today and the six days before. */
export const USAGE_DAYS = 7;
/** The dashboard shows each team's last this many requests; the log keeps no more. */
export const RECENT_REQUESTS = 100;
/** `last_used_at` is written at most this often per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;
const CLEANUP_EVERY_MS = 10 * 60_000;
/** Memory bounds between two flushes: beyond them requests are counted as dropped, never queued. */
const MAX_COUNTERS = 20_000;
const MAX_RECENT = 5_000;
const MAX_PATH_LENGTH = 200;
const DAY_MS = 86_400_000;

interface Counter {
  teamId: string;
  apiKeyId: string;
  day: string;
  statusClass: StatusClass;
  requests: number;
}

/** One answered request as the recorder keeps it until the next flush (the log's row). */
export type RecordedRequest = RequestLogRow;

/**
 * Key usage for the dashboard — daily counts per key and status class, each team's last requests, and each
 * key's `last used` — gathered in memory and written in batches every few seconds (`USAGE_FLUSH_INTERVAL_MS`), so a request costs a few map
 * operations and never a database write. Memory is bounded (see MAX_*); a crash loses at most the last batch
 * (the numbers are for people, not billing). Counts are added with an upsert, so any number of instances can
 * write the same rows. A cleanup every 10 minutes keeps 7 days and the last 100 requests per team.
 */
@Injectable()
export class UsageRecorder implements RequestUsage, BeforeApplicationShutdown, OnApplicationBootstrap {
  private readonly log = new Logger('Usage');
  private counters = new Map<string, Counter>();
  /** The requests since the last flush from `recentHead` on; older ones left the window (see `record`). */
  private recent: RecordedRequest[] = [];
  private recentHead = 0;
  private lastUsed = new Map<string, { teamId: string; at: number }>();
  /** When `last_used_at` was last queued per key (pruned once older than the resolution). */
  private readonly lastUsedQueued = new Map<string, number>();
  private flushing?: Promise<void>;
  private flushTimer?: NodeJS.Timeout;
  private cleanupTimer?: NodeJS.Timeout;
  /** The day `record` last dated a request with, and when it began (`dayOf`). */
  private day = '';
  private dayStart = Number.NaN;
  /** Requests not recorded because a bound was reached (diagnostics). */
  dropped = 0;

  constructor(
    private readonly usage: UsageRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.flushTimer = setInterval(() => void this.flush(), this.config.USAGE_FLUSH_INTERVAL_MS);
    this.flushTimer.unref();
    this.cleanupTimer = setInterval(
      () => void this.cleanup().catch((error: Error) => this.log.warn(`usage cleanup failed: ${error.message}`)),
      CLEANUP_EVERY_MS,
    );
    this.cleanupTimer.unref();
  }

  /** After the last request was answered (the HTTP server drains first) and before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.cleanupTimer);
    await this.flush();
  }

  /** One answered request (no body, key or query string is kept: only the path). */
  record(caller: Caller, method: string, path: string, status: number, durationMs: number): void {
    const at = this.clock.now();
    const day = this.dayOf(at);
    const statusClass = statusClassOf(status);
    const id = `${caller.apiKeyId}|${day}|${statusClass}`;
    const counter = this.counters.get(id);
    if (counter) counter.requests++;
    else if (this.counters.size < MAX_COUNTERS) {
      this.counters.set(id, { teamId: caller.teamId, apiKeyId: caller.apiKeyId, day, statusClass, requests: 1 });
    } else this.dropped++;

    if (this.recent.length - this.recentHead >= MAX_RECENT) {
      // The oldest leaves by a moving head: shift() moved all 5,000 at every request of a busy instance.
      this.recentHead++;
      this.dropped++;
      if (this.recentHead >= MAX_RECENT) {
        this.recent = this.recent.slice(this.recentHead);
        this.recentHead = 0;
      }
    }
    this.recent.push({
      teamId: caller.teamId,
      apiKeyId: caller.apiKeyId,
      at,
      method,
      path: path.length > MAX_PATH_LENGTH ? `${path.slice(0, MAX_PATH_LENGTH - 1)}…` : path,
      status,
      durationMs: Math.round(durationMs),
    });

    const queued = this.lastUsedQueued.get(caller.apiKeyId);
    if (queued === undefined || at - queued >= LAST_USED_RESOLUTION_MS || at < queued) {
      this.lastUsedQueued.set(caller.apiKeyId, at);
      this.lastUsed.set(caller.apiKeyId, { teamId: caller.teamId, at });
    }
  }

  /**
   * The UTC day of `at` (`YYYY-MM-DD`), made once for the day it falls in rather than with a Date and a string for
   * every request; any time outside that day (the next day, a clock moved back) makes it again.
   */
  private dayOf(at: number): string {
    if (!(at >= this.dayStart && at < this.dayStart + DAY_MS)) {
      this.day = new Date(at).toISOString().slice(0, 10);
      this.dayStart = Math.floor(at / DAY_MS) * DAY_MS;
    }
    return this.day;
  }

  /** Writes what was gathered (three statements at most); concurrent calls share one flush. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /** Deletes usage older than 7 days and all but each team's last 100 requests. */
  async cleanup(): Promise<void> {
    const now = this.clock.now();
    const firstDay = new Date(now - (USAGE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    await this.usage.deleteOld(firstDay, new Date(now - USAGE_DAYS * 86_400_000), RECENT_REQUESTS);
  }

  private async write(): Promise<void> {
    const counters = [...this.counters.values()].sort((a, b) =>
      `${a.apiKeyId}${a.day}${a.statusClass}`.localeCompare(`${b.apiKeyId}${b.day}${b.statusClass}`),
    );
    const recent = newestPerTeam(this.recent, this.recentHead, RECENT_REQUESTS);
    const lastUsed = [...this.lastUsed.entries()].sort(([a], [b]) => a.localeCompare(b));
    this.counters = new Map();
    this.recent = [];
    this.recentHead = 0;
    this.lastUsed = new Map();
    const now = this.clock.now();
    for (const [id, at] of this.lastUsedQueued) {
      if (now - at >= LAST_USED_RESOLUTION_MS) this.lastUsedQueued.delete(id);
    }
    try {
      if (counters.length > 0) {
        // Sorted rows: two instances upserting the same counters take their locks in one order (no deadlock).
        await this.usage.addCounts(counters);
      }
      if (recent.length > 0) {
        await this.usage.logRequests(recent);
      }
      if (lastUsed.length > 0) {
        await this.usage.touchKeys(lastUsed.map(([apiKeyId, v]) => ({ teamId: v.teamId, apiKeyId, at: v.at })));
      }
    } catch (error) {
      // Usage is best effort: a batch that cannot be written (the database is away) is dropped, not retried.
      this.dropped += counters.reduce((sum, c) => sum + c.requests, 0);
      this.log.warn(`usage batch not written: ${(error as Error).message}`);
    }
  }
}

/** The last `limit` requests of each team among `requests` from index `from` on, oldest first. */
function newestPerTeam(requests: RecordedRequest[], from: number, limit: number): RecordedRequest[] {
  const seen = new Map<string, number>();
  const kept: RecordedRequest[] = [];
  for (let i = requests.length - 1; i >= from; i--) {
    const request = requests[i];
    const count = seen.get(request.teamId) ?? 0;
    if (count >= limit) continue;
    seen.set(request.teamId, count + 1);
    kept.push(request);
  }
  return kept.reverse();
}
