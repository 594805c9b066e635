import pg from 'pg';
import type { Caller } from './auth.js';

/**
 * The service's key cache, given to the floor so the comparison is honest: good keys by hash, dropped when the
 * `api_key_revoked` trigger notifies, and served only after a round trip on the listening connection that began
 * after the request arrived (so a revocation committed before the request is always heard). One round trip in
 * flight and one queued, shared by every request that waits, as in the service.
 */
export class KeyCache {
  private readonly entries = new Map<string, Caller>();
  private readonly listener: pg.Client;
  private listening = false;
  private inFlight?: Promise<void>;
  private queued?: Promise<void>;

  constructor(connectionString: string) {
    this.listener = new pg.Client({ connectionString, application_name: 'bench-floor:keys' });
    this.listener.on('notification', (message) => {
      if (message.payload) this.entries.delete(message.payload);
    });
    this.listener.on('error', () => {
      this.listening = false;
      this.entries.clear();
    });
  }

  async start(): Promise<void> {
    await this.listener.connect();
    await this.listener.query('LISTEN api_key_revoked');
    this.listening = true;
  }

  async get(hash: string): Promise<Caller | undefined> {
    const entry = this.listening ? this.entries.get(hash) : undefined;
    if (!entry) return undefined;
    await this.sync();
    return this.entries.get(hash) === entry ? entry : undefined;
  }

  set(hash: string, caller: Caller): void {
    if (this.listening) this.entries.set(hash, caller);
  }

  async stop(): Promise<void> {
    this.listening = false;
    await this.listener.end().catch(() => undefined);
  }

  private sync(): Promise<void> {
    if (this.queued) return this.queued;
    const inFlight = this.inFlight;
    if (!inFlight) return this.start_();
    this.queued = inFlight.then(() => {
      this.queued = undefined;
      return this.start_();
    });
    return this.queued;
  }

  private start_(): Promise<void> {
    const roundTrip = this.listener.query('').then(() => undefined);
    this.inFlight = roundTrip;
    void roundTrip.finally(() => {
      if (this.inFlight === roundTrip) this.inFlight = undefined;
    });
    return roundTrip;
  }
}
