import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { Caller } from './caller.js';

export const REVOCATION_CHANNEL = 'api_key_revoked';
const MAX_ENTRIES = 10_000;
const ENTRY_TTL_MS = 5 * 60_000;
const RECONNECT_MS = 1_000;

interface Entry {
  caller: Caller;
  expiresAt: number;
}

/**
 * Known-good API keys by hash, so most requests skip the key lookup. Correctness rests on invalidation:
 * a trigger announces every revocation on `api_key_revoked` (LISTEN/NOTIFY, delivered at commit to every
 * instance), and the cache is only used while this instance is listening — when the listening connection
 * drops, the cache is emptied and every request reads the database until it listens again.
 */
@Injectable()
export class ApiKeyCache implements OnApplicationShutdown {
  private readonly log = new Logger('ApiKeyCache');
  private readonly entries = new Map<string, Entry>();
  private listener?: pg.Client;
  private listening = false;
  private closed = false;
  /** Bumped by every revocation: a lookup that started before one must not fill the cache. */
  private generation = 0;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  get(hash: string, now: number): Caller | undefined {
    if (!this.listening) {
      this.startListening();
      return undefined;
    }
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.caller;
  }

  /** A token to pass back to `set`, taken before the database lookup. */
  snapshot(): number {
    return this.generation;
  }

  set(hash: string, caller: Caller, snapshot: number, now: number): void {
    if (!this.listening || snapshot !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(hash, { caller, expiresAt: now + ENTRY_TTL_MS });
  }

  /** Drops a key at once in this instance (others hear of it through the notification). */
  forget(hash: string): void {
    this.generation++;
    this.entries.delete(hash);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    this.stopListening();
    await this.listener?.end().catch(() => undefined);
  }

  /** Connects lazily (the CLI never authenticates, so it never listens). */
  private startListening(): void {
    if (this.listener || this.closed) return;
    const { url } = this.db.options as { url?: string };
    const listener = new pg.Client({ connectionString: url, application_name: 'property-portfolio-api:keys' });
    this.listener = listener;
    listener.on('notification', (message) => {
      this.generation++;
      if (message.payload) this.entries.delete(message.payload);
    });
    const lost = (reason: string): void => {
      if (this.listener !== listener) return;
      this.stopListening();
      this.listener = undefined;
      listener.end().catch(() => undefined);
      if (!this.closed) {
        this.log.warn(`revocation listener lost (${reason}); reading keys from the database until it is back`);
        setTimeout(() => this.startListening(), RECONNECT_MS).unref();
      }
    };
    listener.on('error', (error) => lost(error.message));
    listener.on('end', () => lost('connection ended'));
    listener
      .connect()
      .then(() => listener.query(`LISTEN ${REVOCATION_CHANNEL}`))
      .then(() => {
        if (this.listener === listener) this.listening = true;
      })
      .catch((error: Error) => lost(error.message));
  }

  private stopListening(): void {
    this.listening = false;
    this.generation++;
    this.entries.clear();
  }
}
