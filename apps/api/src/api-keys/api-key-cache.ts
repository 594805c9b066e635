import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { sessionUrlOf, type Caller } from '@app/common';

export const REVOCATION_CHANNEL = 'api_key_revoked';
const MAX_ENTRIES = 10_000;
const ENTRY_TTL_MS = 5 * 60_000;
/** Refused key hashes kept at once, and for how long (see `refuse`). */
const MAX_REFUSED = 10_000;
const REFUSED_TTL_MS = 10 * 60_000;
const RECONNECT_MS = 1_000;
/** Reconnection attempts back off, doubling up to this. */
const MAX_RECONNECT_MS = 10_000;
/**
 * The round trip that confirms a cached key: an empty query, the cheapest one the protocol has (no parse, plan
 * or snapshot; about a third of `SELECT 1`), yet answered with ReadyForQuery like any other.
 */
const SYNC_QUERY = '';
/** A listening connection that cannot answer the sync within this is treated as lost (requests read keys). */
const SYNC_TIMEOUT_MS = 5_000;

interface Entry {
  caller: Caller;
  expiresAt: number;
}

/**
 * Known-good API keys by hash, so most requests skip the key lookup (an index read on a pooled connection).
 *
 * Invalidation: a trigger announces every revocation on `api_key_revoked` (LISTEN/NOTIFY) in the revoking
 * transaction, and one connection per instance listens. That alone races: the notification reaches this process
 * some time after the revocation commits, so a request sent right after the commit could still hit the cache.
 * No instance can rule that out without hearing from PostgreSQL after the request arrived, because the request
 * itself carries no news of the revocation. So a cached key is only served after a round trip on the listening
 * connection that BEGAN AFTER the request arrived:
 *
 * 1. A committing transaction puts its notifications in the queue before it commits and signals every
 *    listening backend before its client is told the commit is done (PostgreSQL's async.c). So when the
 *    revoker's next request reaches us, that signal has already been sent to our listener's backend.
 * 2. That signal left before our query did, so the backend has taken it by the time it reads the query, and
 *    it sends pending notifications before the query's ReadyForQuery (postgres.c: `ProcessNotifyInterrupt`
 *    just before it goes idle).
 * 3. One connection is an ordered stream, and `pg` emits 'notification' as it parses each message, so the
 *    handler below has deleted the entry before the query's promise settles. We then look again: an entry
 *    that survived the round trip was not revoked before the request arrived.
 *
 * The round trip is shared: every request that arrives while one is under way waits for the next one, so at
 * most one is in flight and one queued, whatever the request rate. It is an empty query on the listening
 * connection, never a pooled one. When the listening connection is lost, the cache is emptied and every request
 * reads the database until it listens again; any failure of the round trip also falls back to the database.
 */
@Injectable()
export class ApiKeyCache implements OnApplicationShutdown {
  private readonly log = new Logger('ApiKeyCache');
  private readonly entries = new Map<string, Entry>();
  /** Key hashes the database did not know (or knew as revoked), by when the memory of that ends. */
  private readonly refused = new Map<string, number>();
  private listener?: pg.Client;
  private listening = false;
  private closed = false;
  private reconnectTimer?: NodeJS.Timeout;
  /** The wait before the next reconnection attempt, and whether this outage was already logged. */
  private reconnectMs = RECONNECT_MS;
  private outageLogged = false;
  /** Bumped by every revocation and listener change: a lookup that started before one must not fill the cache. */
  private generation = 0;
  /** The round trip on the listening connection under way, and the one that starts when it ends. */
  private syncInFlight?: Promise<void>;
  private syncQueued?: Promise<void>;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The cached caller for a key hash, once a round trip begun after this call confirms that no revocation of it
   * committed before (see the class comment); undefined means: read the database.
   */
  async get(hash: string, now: number): Promise<Caller | undefined> {
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
    try {
      await this.sync();
    } catch {
      return undefined;
    }
    // A revocation heard during the round trip deleted the entry; a lost listener emptied the cache.
    return this.listening && this.entries.get(hash) === entry ? entry.caller : undefined;
  }

  /** Whether this key hash is cached now (for tests and diagnostics; `get` still confirms before serving). */
  holds(hash: string): boolean {
    return this.listening && this.entries.has(hash);
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

  /**
   * Remembers that no live key has this hash: unknown, or revoked. Unlike a good key, this needs no round trip
   * before it is believed, because neither state can end: revocation is final, and a hash unknown now can only
   * become known if a key is later created with the same secret, which the server draws from ~238 random bits
   * after the request was answered. (An expired key is not refused here: it sits in `entries`, whose expiry and
   * access changes are announced.) Bounded in size and age, so a flood of random keys cannot grow it.
   */
  refuse(hash: string, now: number): void {
    if (this.refused.size >= MAX_REFUSED) this.refused.delete(this.refused.keys().next().value as string);
    this.refused.set(hash, now + REFUSED_TTL_MS);
  }

  /** Whether the database refused this hash lately (`refuse`): then it need not be asked again. */
  isRefused(hash: string, now: number): boolean {
    const until = this.refused.get(hash);
    if (until === undefined) return false;
    if (until > now) return true;
    this.refused.delete(hash);
    return false;
  }

  /** Drops a key at once in this instance (others hear of it through the notification). */
  forget(hash: string): void {
    this.generation++;
    this.entries.delete(hash);
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.stopListening();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  /** Resolves after a round trip on the listening connection that began no earlier than this call. */
  private sync(): Promise<void> {
    // The queued round trip has not begun yet, so it serves this caller too.
    if (this.syncQueued) return this.syncQueued;
    const inFlight = this.syncInFlight;
    if (!inFlight) return this.startSync();
    // The one in flight may have begun before this request arrived: wait for the next.
    const queued = inFlight
      .catch(() => undefined)
      .then(() => {
        this.syncQueued = undefined;
        return this.startSync();
      });
    this.syncQueued = queued;
    return queued;
  }

  private startSync(): Promise<void> {
    const listener = this.listener;
    if (!listener || !this.listening) return Promise.reject(new Error('not listening'));
    let timer: NodeJS.Timeout | undefined;
    const roundTrip = new Promise<void>((resolve, reject) => {
      // A watchdog only: it must never be what keeps a process alive.
      timer = setTimeout(() => {
        reject(new Error('sync timed out'));
        this.lost(listener, `no answer to a sync within ${SYNC_TIMEOUT_MS} ms`);
      }, SYNC_TIMEOUT_MS).unref();
      listener.query(SYNC_QUERY).then(() => resolve(), reject);
    }).finally(() => clearTimeout(timer));
    this.syncInFlight = roundTrip;
    const done = (): void => {
      if (this.syncInFlight === roundTrip) this.syncInFlight = undefined;
    };
    roundTrip.then(done, done);
    return roundTrip;
  }

  /** Connects lazily (the CLI never authenticates, so it never listens). */
  private startListening(): void {
    if (this.listener || this.closed) return;
    // PostgreSQL itself (DATABASE_DIRECT_URL): through a transaction pooler the LISTEN would be lost.
    const listener = new pg.Client({
      connectionString: sessionUrlOf(this.db),
      application_name: 'property-portfolio-api:keys',
    });
    this.listener = listener;
    listener.on('notification', (message) => {
      this.generation++;
      if (message.payload) this.entries.delete(message.payload);
    });
    listener.on('error', (error) => this.lost(listener, error.message));
    listener.on('end', () => this.lost(listener, 'connection ended'));
    listener
      .connect()
      .then(() => listener.query(`LISTEN ${REVOCATION_CHANNEL}`))
      .then(() => {
        if (this.listener !== listener || this.closed) return;
        // Lookups that began before LISTEN took effect may have read a key whose revocation we never hear of.
        this.generation++;
        this.listening = true;
        this.reconnectMs = RECONNECT_MS;
        if (this.outageLogged) this.log.log('revocation listener back: caching keys again');
        this.outageLogged = false;
      })
      .catch((error: Error) => this.lost(listener, error.message));
  }

  private lost(listener: pg.Client, reason: string): void {
    if (this.listener !== listener) return;
    this.stopListening();
    this.listener = undefined;
    listener.end().catch(() => undefined);
    if (this.closed) return;
    // Once per outage, not once per attempt: a database that is down for minutes must not flood the log.
    if (!this.outageLogged) {
      this.log.warn(`revocation listener lost (${reason}); reading keys from the database until it is back`);
      this.outageLogged = true;
    }
    const wait = this.reconnectMs;
    this.reconnectMs = Math.min(this.reconnectMs * 2, MAX_RECONNECT_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.startListening();
    }, wait);
    this.reconnectTimer.unref();
  }

  private stopListening(): void {
    this.listening = false;
    this.generation++;
    this.entries.clear();
  }
}
