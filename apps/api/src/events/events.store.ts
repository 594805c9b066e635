import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '@app/common';
import { DomainError } from '@app/common';
import { ambientManager, teamSelect, teamStatement, unscopedStatement } from '@app/common';
import { outboxStatement } from './outbox-statement.js';
import {
  EVENT_RETENTION_MS,
  historyWriteOf,
  type EventBody,
  type EventContext,
  type EventType,
  type HistoryWrite,
} from '@app/common';

/**
 * The history part of `record`'s statement (CONTRACT "History of every record"): an entry numbered by the event's
 * `seq`, so a record's entries sort in commit order, with the event's id; or, for a deleted record, its history
 * deleted. Parameters from `$6`: record, record id, then the entry's type, actor, changes and subject.
 */
const HISTORY_SQL: Record<HistoryWrite['kind'] | 'none', string> = {
  entry: `,
       history AS (
         INSERT INTO record_history (team_id, record, record_id, seq, id, type, at, actor, changes, subject_id)
         SELECT $1, $6, $7::uuid, last_seq, id, $8, $4, $9::jsonb, $10::jsonb, $11::uuid FROM named)`,
  forget: `,
       history AS (DELETE FROM record_history WHERE team_id = $1 AND record = $6 AND record_id = $7::uuid)`,
  none: '',
};

function historyParams(history: HistoryWrite | undefined): unknown[] {
  if (!history) return [];
  if (history.kind === 'forget') return [history.record, history.recordId];
  const { record, recordId, type, actor, changes, subjectId } = history;
  return [record, recordId, type, JSON.stringify(actor), changes && JSON.stringify(changes), subjectId];
}

/** `evt_` + the team's sequence number (16 hex digits) + 16 random hex digits. */
const EVENT_ID = /^evt_([0-9a-f]{16})[0-9a-f]{16}$/;

/** A cursor (`after`) older than the retention: the events after it are gone (410). */
export class CursorExpiredError extends DomainError {
  constructor() {
    super('gone', 'after names an event older than the 30-day retention; start again without after');
  }
}

export class MalformedCursorError extends DomainError {
  constructor() {
    super('invalid_reference', 'after must be the id of an event of this feed (evt_ and 32 hex digits)');
  }
}

export interface EventPage {
  events: EventBody[];
  hasMore: boolean;
}

/**
 * The transactional outbox and the feed over it. `record` runs in the transaction of the change it announces,
 * as its last write; `seq` comes from the team's row in `event_sequences`, whose lock is held until that
 * transaction ends, so a team's events are numbered in commit order with no gaps (docs/events.md).
 */
@Injectable()
export class EventsStore {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Records an event in `manager`'s transaction, with its webhook deliveries and history entry, in one statement.
   * `commits`: the caller owns the transaction and has nothing more to write in it, so its COMMIT may go out right
   * behind this statement (one round trip for both; `commitBehind`).
   */
  async record(
    manager: EntityManager,
    teamId: string,
    type: EventType,
    object: object,
    previousAttributes?: Record<string, unknown>,
    context: EventContext = {},
    { commits = false }: { commits?: boolean } = {},
  ): Promise<string> {
    const createdAt = new Date(this.clock.now());
    const data = previousAttributes ? { object, previousAttributes } : { object };
    // The body after its id, which depends on the sequence number: one statement, one round trip.
    const rest = JSON.stringify({ type, createdAt: createdAt.toISOString(), data }).slice(1);
    const history = historyWriteOf(type, object, previousAttributes, context);
    // Scoped by construction: every row it writes carries $1 as its team. The same statement queues a delivery for
    // each of the team's enabled endpoints that takes this type (the outbox's fan-out to webhooks), and writes the
    // record's history entry under the event's number (or deletes the history of a deleted record).
    const rows = await outboxStatement<{ id: string }>(
      manager,
      teamId,
      `WITH next AS (
         INSERT INTO event_sequences AS s (team_id, last_seq) VALUES ($1, 1)
         ON CONFLICT (team_id) DO UPDATE SET last_seq = s.last_seq + 1
         RETURNING s.last_seq),
       named AS (SELECT last_seq, 'evt_' || lpad(to_hex(last_seq), 16, '0') || $2 AS id FROM next),
       event AS (
         INSERT INTO events (team_id, seq, id, type, created_at, body)
         SELECT $1, last_seq, id, $3, $4, '{"id":"' || id || '",' || $5 FROM named
         RETURNING id, type, body),
       fanout AS (
         INSERT INTO webhook_deliveries (team_id, endpoint_id, event_id, type, body, next_attempt_at, created_at)
         SELECT $1, w.id, event.id, event.type, event.body, $4, $4
           FROM event JOIN webhook_endpoints w
             ON w.team_id = $1 AND w.enabled AND (w.types IS NULL OR event.type = ANY (w.types)))${HISTORY_SQL[history?.kind ?? 'none']}
       SELECT id FROM event`,
      [randomBytes(8).toString('hex'), type, createdAt, rest, ...historyParams(history)],
      { prepared: true, commits },
    );
    return rows[0].id;
  }

  /** The events after a cursor, in commit order. */
  async page(
    teamId: string,
    after: string | undefined,
    types: string[] | undefined,
    limit: number,
  ): Promise<EventPage> {
    const manager = ambientManager() ?? this.db.manager;
    const afterSeq = after === undefined ? 0 : await this.seqOf(manager, teamId, after);
    const rows = await teamSelect<{ body: string }>(
      manager,
      teamId,
      {
        from: 'events e',
        columns: 'e.body',
        where: `e.seq > $2${types ? ' AND e.type = ANY($4)' : ''}`,
        orderBy: 'e.seq',
        limit: '$3',
      },
      types ? [afterSeq, limit + 1, types] : [afterSeq, limit + 1],
    );
    return {
      events: rows.slice(0, limit).map((row) => JSON.parse(row.body) as EventBody),
      hasMore: rows.length > limit,
    };
  }

  /**
   * Deletes events past the retention, and the finished webhook deliveries of that age (the scheduled cleanup);
   * the number of events deleted.
   */
  async deleteExpired(): Promise<number> {
    const before = new Date(this.clock.now() - EVENT_RETENTION_MS);
    const why = 'the retention cleanup: every team’s rows past the same age';
    await unscopedStatement(
      this.db.manager,
      `DELETE FROM webhook_deliveries WHERE created_at < $1 AND state <> 'pending'`,
      [before],
      { why },
    );
    const [, count] = await unscopedStatement<unknown>(
      this.db.manager,
      'DELETE FROM events WHERE created_at < $1',
      [before],
      { why },
    );
    return count as number;
  }

  /** A cursor's position: 400 when it is not an event id of this team, 410 when its event has expired. */
  private async seqOf(manager: EntityManager, teamId: string, after: string): Promise<number> {
    const match = EVENT_ID.exec(after);
    if (!match) throw new MalformedCursorError();
    const seq = Number.parseInt(match[1], 16);
    const [row] = await teamStatement<{ found: boolean; oldest: string | null; last: string | null }>(
      manager,
      teamId,
      `SELECT EXISTS (SELECT 1 FROM events WHERE team_id = $1 AND id = $2) AS found,
              (SELECT min(seq) FROM events WHERE team_id = $1) AS oldest,
              (SELECT last_seq FROM event_sequences WHERE team_id = $1) AS last`,
      [after],
      { why: 'three scalar subqueries, each on the team’s own rows (team_id = $1)' },
    );
    if (row.found) return seq;
    const issued = row.last !== null && seq <= Number(row.last);
    if (issued && (row.oldest === null || seq < Number(row.oldest))) throw new CursorExpiredError();
    throw new MalformedCursorError();
  }
}
