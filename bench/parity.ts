import { randomUUID } from 'node:crypto';
import type { Fixtures } from './fixtures.js';
import type { ServerUnderTest } from './lib/servers.js';
import { COMMON_STREET } from './seed/vocabulary.js';

interface Answer {
  status: number;
  body: unknown;
}

async function call(
  server: ServerUnderTest,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

/** The first place where two JSON values differ, or undefined when they are the same (key order aside). */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    return `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const difference = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    if (!(key in left) || !(key in right)) return `${path}.${key}: present on one side only`;
    const difference = firstDifference(left[key], right[key], `${path}.${key}`);
    if (difference) return difference;
  }
  return undefined;
}

function compare(label: string, service: Answer, floor: Answer): string | undefined {
  if (service.status !== floor.status) return `${label}: status ${service.status} (service) vs ${floor.status} (floor)`;
  const difference = firstDifference(service.body, floor.body);
  return difference ? `${label}: ${difference} (service vs floor)` : undefined;
}

/** GETs whose answers must be the same from both servers, errors included. */
function readChecks(fixtures: Fixtures): string[] {
  const street = encodeURIComponent(COMMON_STREET);
  return [
    `/v1/work-orders/${fixtures.readIds[0]}`,
    `/v1/work-orders/${fixtures.readIds[1].toUpperCase()}`,
    '/v1/work-orders',
    '/v1/work-orders?page=2&pageSize=50',
    '/v1/work-orders?search=leak',
    '/v1/work-orders?search=%20LEAK%20&page=3&pageSize=7',
    '/v1/work-orders?search=wo-1',
    '/v1/work-orders?search=100%25',
    '/v1/work-orders?status=reported&priority=1',
    '/v1/work-orders?status=reported,in_progress&priority=0,1&pageSize=50',
    '/v1/work-orders?page=100000',
    `/v1/tenants?search=${street}`,
    `/v1/tenants?search=${street.toLowerCase()}&page=2&pageSize=5`,
    `/v1/tenants?search=${encodeURIComponent(fixtures.tenantSurname)}`,
    '/v1/tenants',
    `/v1/work-orders/${randomUUID()}`,
    '/v1/work-orders/not-a-uuid',
    '/v1/work-orders?status=done',
    '/v1/work-orders?pageSize=51&page=0',
    '/v1/work-orders?colour=red',
    '/v1/tenants?search=a%01b',
  ];
}

/**
 * Asks both servers the same things and lists every difference. Writes go to one server and are read back from
 * the other, so each side's writes are checked by the other's reads.
 */
export async function checkParity(
  service: ServerUnderTest,
  floor: ServerUnderTest,
  fixtures: Fixtures,
): Promise<string[]> {
  const key = fixtures.apiKey;
  const problems: string[] = [];
  const note = (problem: string | undefined): void => void (problem && problems.push(problem));
  for (const path of readChecks(fixtures)) {
    note(compare(`GET ${path}`, await call(service, key, 'GET', path), await call(floor, key, 'GET', path)));
  }
  note(
    compare(
      'GET with an unknown key',
      await call(service, 'ppk_' + 'x'.repeat(40), 'GET', '/v1/work-orders'),
      await call(floor, 'ppk_' + 'x'.repeat(40), 'GET', '/v1/work-orders'),
    ),
  );

  const place = fixtures.places.find((candidate) => candidate.tenantId !== null) ?? fixtures.places[0];
  const body = {
    title: '  Leaking tap in kitchen ',
    unitId: place.unitId,
    tenantId: place.tenantId,
    priority: 1,
    description: '',
  };
  for (const [writer, reader] of [
    [service, floor],
    [floor, service],
  ] as const) {
    const created = await call(writer, key, 'POST', '/v1/work-orders', body);
    if (created.status !== 201) {
      problems.push(`POST on the ${writer.name}: ${created.status} ${JSON.stringify(created.body)}`);
      continue;
    }
    const { data } = created.body as { data: { id: string } };
    note(
      compare(
        `POST on the ${writer.name}, GET`,
        { status: 200, body: created.body },
        await call(reader, key, 'GET', `/v1/work-orders/${data.id}`),
      ),
    );
    const moved = await call(writer, key, 'PUT', `/v1/work-orders/${data.id}`, {
      status: 'completed',
      availability: ' ',
    });
    note(
      compare(`PUT on the ${writer.name}, GET`, moved, await call(reader, key, 'GET', `/v1/work-orders/${data.id}`)),
    );
  }
  const invalid = { title: '', unitId: 'nope', status: 'reported' };
  note(
    compare(
      'POST invalid body',
      await call(service, key, 'POST', '/v1/work-orders', invalid),
      await call(floor, key, 'POST', '/v1/work-orders', invalid),
    ),
  );
  const conflict = `/v1/work-orders/${fixtures.completedId}`;
  note(
    compare(
      'PUT completed → cancelled',
      await call(service, key, 'PUT', conflict, { status: 'cancelled' }),
      await call(floor, key, 'PUT', conflict, { status: 'cancelled' }),
    ),
  );
  return problems;
}
