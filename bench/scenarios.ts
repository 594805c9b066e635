import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { ATTACHMENT_TARGETS, photoUploads } from './attachments.js';
import type { Fixtures } from './fixtures.js';
import type { NextRequest } from './lib/load.js';
import { COMMON_STREET, PROBLEMS, ROOMS } from './seed/vocabulary.js';

export interface Scenario {
  name: string;
  /** A request generator; both servers get a fresh one built from the same fixtures. */
  requests: (fixtures: Fixtures) => () => NextRequest;
  /** Prepares the scenario (before both servers run it); returns what undoes it. */
  setup?: (databaseUrl: string, fixtures: Fixtures) => Promise<() => Promise<void>>;
  /** The least `service ÷ floor` (req/s) a full run must reach; a run below it fails. */
  minRatio?: number;
  /** In a smoke run, send only this many requests (no warm-up) instead of loading for the smoke's duration. */
  smokeRequests?: number;
  /** The servers write files (uploads): removed after each server's run, before the next server's. */
  writesFiles?: boolean;
  /**
   * Issue 27's growth target: the service's p95 at scale 10 over its p95 at scale 1, at most this (1.3 for GET one,
   * POST and PUT, 2 for lists and searches). `npm run bench:compare` checks it between two runs.
   */
  maxGrowth: number;
  /**
   * A second load for the floor alone, measured beside the others: the scenario's work done the least way the
   * contract allows, by hand on plain `node:http` (the floor's `least-work-upload` route). A reference for what the
   * target asks on this machine, not a target: it skips guarantees the service must give.
   */
  leastWork?: (fixtures: Fixtures) => () => NextRequest;
}

/** Issue 27: reading or writing one record may slow by 30% on ten times the data, a list or a search may double. */
const ONE_RECORD = 1.3;
const LISTS = 2;

/**
 * One active webhook endpoint for the big team, answered by a receiver in this process (204 at once), so every
 * POST also queues a delivery that the service sends while the load runs. Made by SQL: the service checks URLs at
 * creation, and the bench runs it with WEBHOOKS_ALLOW_PRIVATE so it may deliver to 127.0.0.1.
 */
async function oneWebhookEndpoint(databaseUrl: string, fixtures: Fixtures): Promise<() => Promise<void>> {
  let received = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO webhook_endpoints (team_id, id, url, secret, created_at, updated_at)
       VALUES ($1, gen_random_uuid(), $2, $3, now(), now())`,
      [fixtures.teamId, url, `whsec_${Buffer.alloc(32, 1).toString('base64')}`],
    );
  } finally {
    await client.end();
  }
  return async () => {
    const cleanup = new pg.Client({ connectionString: databaseUrl });
    await cleanup.connect();
    try {
      await cleanup.query('DELETE FROM webhook_endpoints WHERE team_id = $1', [fixtures.teamId]);
    } finally {
      await cleanup.end();
    }
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    process.stderr.write(`[bench]   the webhook receiver got ${received} deliveries\n`);
  };
}

function cycle<T>(items: T[]): () => T {
  let next = 0;
  return () => items[next++ % items.length];
}

const fixed = (path: string) => (): (() => NextRequest) => () => ({ method: 'GET', path });

/** Idempotency keys unique across runs, and across the warm-up and measured phases of one run. */
const RUN = Date.now().toString(36);
let keySequence = 0;

/** New work orders across the seeded units and tenants, with realistic titles and priorities. */
function postWorkOrders(fixtures: Fixtures): () => NextRequest {
  const place = cycle(fixtures.places);
  const problem = cycle(PROBLEMS.map(([title]) => title));
  const room = cycle([...ROOMS]);
  const priority = cycle(['2', '1', '3', '2', '0']);
  return () => {
    const { unitId, tenantId } = place();
    return {
      method: 'POST',
      path: '/v1/work-orders',
      body: {
        title: `${problem()} in ${room()}`,
        description: 'Reported through the benchmark.',
        unitId,
        ...(tenantId ? { tenantId } : {}),
        priority: priority(),
        availability: 'Weekdays after 5pm',
      },
    };
  };
}

/** The scenarios of the benchmark, reads first so they run on the data as seeded. */
export const SCENARIOS: Scenario[] = [
  {
    name: 'GET one work order',
    requests: (fixtures) => {
      const id = cycle(fixtures.readIds);
      return () => ({ method: 'GET', path: `/v1/work-orders/${id()}` });
    },
    maxGrowth: ONE_RECORD,
  },
  { name: 'list work orders, page 1', requests: fixed('/v1/work-orders'), maxGrowth: LISTS },
  { name: 'list, search=leak', requests: fixed('/v1/work-orders?search=leak'), maxGrowth: LISTS },
  {
    name: 'list, status=reported&priority=1',
    requests: fixed('/v1/work-orders?status=reported&priority=1'),
    maxGrowth: LISTS,
  },
  {
    name: `tenants, search=${COMMON_STREET}`,
    requests: fixed(`/v1/tenants?search=${encodeURIComponent(COMMON_STREET)}`),
    maxGrowth: LISTS,
  },
  {
    // Lists are answered from memory while the team is unchanged (docs/performance.md, "Lists by change version"):
    // here every tenth request is a write, which moves the version, so searches after it count again. Latencies
    // are over all requests, POSTs included.
    name: 'search=leak, 1 request in 10 a POST',
    requests: (fixtures) => {
      const post = postWorkOrders(fixtures);
      let sent = 0;
      return () => (++sent % 10 === 0 ? post() : { method: 'GET', path: '/v1/work-orders?search=leak' });
    },
    maxGrowth: LISTS,
  },
  {
    name: 'POST work order',
    requests: (fixtures) => postWorkOrders(fixtures),
    maxGrowth: ONE_RECORD,
  },
  {
    // Every POST with its own key: what a careful integration sends (the answer is stored in the same transaction).
    name: 'POST work order, Idempotency-Key',
    requests: (fixtures) => {
      const next = postWorkOrders(fixtures);
      return () => ({ ...next(), headers: { 'Idempotency-Key': `bench-${RUN}-${++keySequence}` } });
    },
    maxGrowth: ONE_RECORD,
  },
  {
    // The outbox's cost on the write path: each POST also queues a delivery, which the service sends meanwhile.
    name: 'POST work order, one webhook endpoint',
    requests: (fixtures) => postWorkOrders(fixtures),
    setup: oneWebhookEndpoint,
    maxGrowth: ONE_RECORD,
  },
  {
    name: 'PUT work order status',
    requests: (fixtures) => {
      // Round robin over the pool: with far more ids than connections, no two requests wait on one row lock.
      const next = cycle(fixtures.moving);
      return () => {
        const row = next();
        row.status = row.status === 'reported' ? 'in_progress' : 'reported';
        return { method: 'PUT', path: `/v1/work-orders/${row.id}`, body: { status: row.status } };
      };
    },
    maxGrowth: ONE_RECORD,
  },
  {
    // Issue 24: the service (key, multipart parsing, type from the bytes, SHA-256, the storage's file, a row and its
    // event) against the floor's plain upload route (the body streamed to a file, nothing else). Last: the rows it
    // adds are removed with the run's other writes.
    name: 'POST attachment, 1 MiB photo',
    requests: (fixtures) => photoUploads(fixtures),
    leastWork: (fixtures) => photoUploads(fixtures, (workOrderId) => `/v1/floor/least-work-upload/${workOrderId}`),
    minRatio: ATTACHMENT_TARGETS.uploadRatio,
    smokeRequests: 10,
    writesFiles: true,
    maxGrowth: ONE_RECORD,
  },
];
