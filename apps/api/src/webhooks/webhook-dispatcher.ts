import { Injectable, Logger, BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig, Clock, sessionUrlOf, Transactions } from '@app/common';
import { parseSchedule, retryDelay } from './retry-schedule.js';
import { WebhookQueueRepository, type AttemptResult, type ClaimedDelivery } from './webhook-queue.repository.js';
import { WebhookSender, type Outcome } from './webhook-sender.js';

/** A claim holds a delivery this much longer than an attempt may take, so a live sender always finishes first. */
const LEASE_MARGIN_MS = 5_000;
/** Attempts this instance runs at once; a slot that frees is filled at once (no waiting for the others). */
export const SLOTS = 10;
/** Attempts one team's endpoints get at once, across every instance: a team's slow endpoints cannot fill the pool. */
export const TEAM_SLOTS = 4;
/** An endpoint whose every delivery failed for this long is disabled. */
export const FAILING_DISABLE_MS = 5 * 86_400_000;
const LISTEN_RETRY_MS = 5_000;

type Claimed = ClaimedDelivery;

/**
 * Sends webhook deliveries from the PostgreSQL queue (`webhook_deliveries`); runs in every instance.
 *
 * - Claiming: due deliveries are taken with `FOR UPDATE SKIP LOCKED` and leased (`locked_until`, `attempts + 1`)
 *   in one statement, so any number of instances share the work and never send the same attempt at once. The
 *   lease outlasts the attempt (`WEBHOOK_TIMEOUT_MS`, 10 s); if the sender dies (a crash, a kill), the lease runs out and another
 *   instance — or this one after a restart — sends it again: at least once, never lost.
 * - Sharing: a pool of `SLOTS` attempts per instance, refilled as each attempt ends. A claim takes teams in turns
 *   (each team's oldest due delivery first, then each team's second…, counting what the team already has in
 *   flight) and never gives a team more than `TEAM_SLOTS` attempts at once across instances (in-flight = leased
 *   and not yet recorded; claims take a transaction-level advisory lock so two instances cannot both fill a team's
 *   last slot). A team's backlog or slow endpoints therefore delay only that team.
 * - Waking: an insert trigger NOTIFYs `webhook_delivery` at commit; one listening connection per instance wakes
 *   the loop, and a poll every `WEBHOOK_POLL_INTERVAL_MS` catches retries that fall due by time.
 * - Sending: `WebhookSender`, to an address checked at this very attempt, whatever the host's form.
 * - Results: 2xx → succeeded; 410 → failed and the endpoint disabled; otherwise the next retry on
 *   `WEBHOOK_RETRY_SCHEDULE` (±10 % jitter), then failed. An endpoint with nothing but failures for 5 days is
 *   disabled. A result is written only by the holder of the lease (the attempt number must still match).
 */
@Injectable()
export class WebhookDispatcher implements BeforeApplicationShutdown, OnApplicationBootstrap {
  private readonly log = new Logger('Webhooks');
  private readonly schedule: number[];
  private readonly sender: WebhookSender;
  private readonly timeoutMs: number;
  private listener?: pg.Client;
  private pollTimer?: NodeJS.Timeout;
  private listenTimer?: NodeJS.Timeout;
  /** The claim under way (one at a time per instance), and the attempts under way. */
  private claiming?: Promise<void>;
  private readonly inFlight = new Set<Promise<void>>();
  private again = false;
  private closed = false;
  private listenerWarned = false;
  /** Attempts sent by this instance (for tests and metrics). */
  sent = 0;
  /** Told of every attempt's outcome and duration (the metrics module listens when metrics are on). */
  observe?: (outcome: 'succeeded' | 'retry' | 'failed', seconds: number) => void;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: WebhookQueueRepository,
    private readonly transactions: Transactions,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.schedule = parseSchedule(config.WEBHOOK_RETRY_SCHEDULE);
    this.timeoutMs = config.WEBHOOK_TIMEOUT_MS;
    this.sender = new WebhookSender(
      { allowHttp: config.WEBHOOKS_ALLOW_HTTP, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE },
      this.timeoutMs,
      clock,
    );
  }

  onApplicationBootstrap(): void {
    this.listen();
    this.pollTimer = setInterval(() => this.wake(), this.config.WEBHOOK_POLL_INTERVAL_MS);
    this.pollTimer.unref();
    this.wake();
  }

  /** Before the database closes, so the attempts under way record their results. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.listenTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    // Attempts under way finish (each is bounded by its timeout); unclaimed work waits in the queue.
    await this.idle();
  }

  /** Fills the free slots now, or once more after the claim under way. */
  wake(): void {
    if (this.closed) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    const free = SLOTS - this.inFlight.size;
    // Full: the next attempt to end wakes the pool.
    if (free <= 0) return;
    this.claiming = this.claim(free)
      .then((claimed) => {
        for (const delivery of claimed) this.start(delivery);
        // Every slot asked for was filled: more may be due.
        if (claimed.length === free) this.again = true;
      })
      .catch((error: Error) => this.log.warn(`webhook delivery claim failed: ${error.message}`))
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Waits until no claim and no attempt is under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.claiming || this.inFlight.size > 0) await Promise.all([this.claiming, ...this.inFlight]);
  }

  /** Attempts under way in this instance (tests). */
  get active(): number {
    return this.inFlight.size;
  }

  private start(delivery: Claimed): void {
    const attempt: Promise<void> = this.attempt(delivery)
      .catch((error: Error) => this.log.warn(`webhook delivery attempt failed: ${error.message}`))
      .finally(() => {
        this.inFlight.delete(attempt);
        this.wake();
      });
    this.inFlight.add(attempt);
  }

  /**
   * Leases up to `limit` due deliveries, teams in turns: a delivery's turn is its rank among its team's due
   * deliveries plus the team's attempts already in flight (anywhere), and no team goes past `TEAM_SLOTS`. The
   * advisory lock makes claims take turns across instances, so the in-flight counts they read are current.
   */
  private async claim(limit: number): Promise<Claimed[]> {
    const now = this.clock.now();
    return this.transactions.run(async (manager): Promise<Claimed[]> => {
      await this.queue.lockClaims(manager);
      return this.queue.claim(
        manager,
        new Date(now),
        limit,
        TEAM_SLOTS,
        new Date(now + this.timeoutMs + LEASE_MARGIN_MS),
      );
    });
  }

  private async attempt(delivery: Claimed): Promise<void> {
    const started = process.hrtime.bigint();
    if (delivery.enabled) this.sent++;
    const outcome: Outcome = delivery.enabled
      ? await this.sender.send({
          url: delivery.url,
          eventId: delivery.event_id,
          body: delivery.body,
          secrets: this.secretsOf(delivery),
        })
      : { error: 'The endpoint is disabled; retry the delivery after enabling it' };
    const state = await this.record(delivery, outcome);
    this.observe?.(state === 'pending' ? 'retry' : state, Number(process.hrtime.bigint() - started) / 1e9);
  }

  private secretsOf(delivery: Claimed): string[] {
    const previousValid =
      delivery.previous_secret &&
      delivery.previous_secret_until &&
      delivery.previous_secret_until.getTime() > this.clock.now();
    return previousValid ? [delivery.secret, delivery.previous_secret as string] : [delivery.secret];
  }

  private async record(delivery: Claimed, outcome: Outcome): Promise<'succeeded' | 'pending' | 'failed'> {
    const now = this.clock.now();
    const ok = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
    const gone = outcome.status === 410;
    const error = ok
      ? null
      : (outcome.error ?? `The endpoint answered ${outcome.status ?? 'nothing'}${gone ? ' (Gone)' : ''}`);
    const delay = ok || gone || !delivery.enabled ? undefined : retryDelay(this.schedule, delivery.attempts);
    const state = ok ? 'succeeded' : delay === undefined ? 'failed' : 'pending';
    const next = delay === undefined ? null : new Date(now + delay);
    await this.transactions.run(async (manager): Promise<void> => {
      const result: AttemptResult = { state, status: outcome.status ?? null, error, nextAttemptAt: next };
      // The lease ran out and someone else took the delivery: their result counts, not this one.
      if (!(await this.queue.recordAttempt(manager, delivery, result))) return;
      if (ok) return this.queue.endpointSucceeded(manager, delivery.team_id, delivery.endpoint_id);
      if (gone) {
        const reason = 'The endpoint answered 410 Gone';
        return this.queue.disableEndpoint(manager, delivery.team_id, delivery.endpoint_id, reason, new Date(now));
      }
      if (!delivery.enabled) return;
      const disableBy = new Date(now - FAILING_DISABLE_MS);
      await this.queue.endpointFailed(manager, delivery.team_id, delivery.endpoint_id, new Date(now), disableBy);
    });
    return state;
  }

  /** Deliveries waiting to be sent, across every instance (the metrics' queue depth). */
  queueDepth(): Promise<number> {
    return this.queue.pendingCount();
  }

  /** One connection per instance LISTENs for new deliveries; lost, it retries quietly (the poll still runs). */
  private listen(): void {
    if (this.closed || this.listener) return;
    // PostgreSQL itself (DATABASE_DIRECT_URL): through a transaction pooler the LISTEN would be lost.
    const listener = new pg.Client({
      connectionString: sessionUrlOf(this.db),
      application_name: 'property-portfolio-api:webhooks',
    });
    this.listener = listener;
    const lost = (reason: string): void => {
      if (this.listener !== listener) return;
      this.listener = undefined;
      listener.end().catch(() => undefined);
      if (this.closed) return;
      if (!this.listenerWarned) this.log.warn(`webhook listener lost (${reason}); polling until it is back`);
      this.listenerWarned = true;
      this.listenTimer = setTimeout(() => this.listen(), LISTEN_RETRY_MS);
      this.listenTimer.unref();
    };
    listener.on('notification', () => this.wake());
    listener.on('error', (error) => lost(error.message));
    listener.on('end', () => lost('connection ended'));
    listener
      .connect()
      .then(() => listener.query('LISTEN webhook_delivery'))
      .then(() => {
        this.listenerWarned = false;
        this.wake();
      })
      .catch((error: Error) => lost(error.message));
  }
}
