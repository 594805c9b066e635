import type { Fixtures } from './fixtures.js';
import type { NextRequest } from './lib/load.js';
import { COMMON_STREET, PROBLEMS, ROOMS } from './seed/vocabulary.js';

export interface Scenario {
  name: string;
  /** A request generator; both servers get a fresh one built from the same fixtures. */
  requests: (fixtures: Fixtures) => () => NextRequest;
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
  },
  { name: 'list work orders, page 1', requests: fixed('/v1/work-orders') },
  { name: 'list, search=leak', requests: fixed('/v1/work-orders?search=leak') },
  { name: 'list, status=reported&priority=1', requests: fixed('/v1/work-orders?status=reported&priority=1') },
  {
    name: `tenants, search=${COMMON_STREET}`,
    requests: fixed(`/v1/tenants?search=${encodeURIComponent(COMMON_STREET)}`),
  },
  {
    name: 'POST work order',
    requests: (fixtures) => postWorkOrders(fixtures),
  },
  {
    // Every POST with its own key: what a careful integration sends (the answer is stored in the same transaction).
    name: 'POST work order, Idempotency-Key',
    requests: (fixtures) => {
      const next = postWorkOrders(fixtures);
      return () => ({ ...next(), headers: { 'Idempotency-Key': `bench-${RUN}-${++keySequence}` } });
    },
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
  },
];
