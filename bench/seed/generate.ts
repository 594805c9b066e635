import type { Rng } from '../lib/prng.js';
import { DAY, HISTORY_END, HISTORY_START, iso } from './history.js';
import {
  generateContractors,
  generateLandlords,
  type Row,
  generateTenants,
  generateUnits,
  type UnitsStream,
} from './people-and-places.js';
import {
  AVAILABILITY,
  DESCRIPTION_DETAILS,
  INTAKE_CHANNELS,
  PROBLEMS,
  REGIONS,
  ROOMS,
  type Region,
} from './vocabulary.js';

export type { Row } from './people-and-places.js';

export interface TeamSize {
  units: number;
  tenants: number;
  landlords: number;
  contractors: number;
  workOrders: number;
}

/** The tables a team's rows go to, in the order they must be stored (each row's references first). */
export type TeamTable = 'units' | 'tenants' | 'tenant_units' | 'landlords' | 'contractors' | 'work_orders';

/**
 * One team: its rows table by table, made as they are read (a million work orders are never all in memory). Read
 * `tables` in order, each to its end, once: a later table's rows draw on what an earlier one's recorded (the units'
 * ids, who lives where).
 */
export interface TeamData {
  id: string;
  name: string;
  createdAt: string;
  /** How many work orders `tables` holds, numbered 1 to this. */
  workOrderCount: number;
  tables: { table: TeamTable; rows: Iterable<Row> }[];
}

/** `count` times in [from, to), ascending. */
export function sortedTimes(rng: Rng, count: number, from: number, to: number): number[] {
  const times = Array.from({ length: count }, () => from + Math.floor(rng.next() * (to - from)));
  return times.sort((a, b) => a - b);
}

/** How many of the ascending `times` are at or before `t`. */
function countUpTo(times: number[], t: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (times[mid] <= t) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Old work orders are mostly closed; the last week's are mostly open. */
function statusFor(rng: Rng, ageDays: number): string {
  if (ageDays < 7)
    return rng.weighted([
      ['reported', 50],
      ['in_progress', 35],
      ['completed', 12],
      ['cancelled', 3],
    ]);
  if (ageDays < 60)
    return rng.weighted([
      ['reported', 15],
      ['in_progress', 30],
      ['completed', 48],
      ['cancelled', 7],
    ]);
  return rng.weighted([
    ['reported', 3],
    ['in_progress', 5],
    ['completed', 82],
    ['cancelled', 10],
  ]);
}

const CONTRACTOR_CHANCE: Record<string, number> = { reported: 0.3, in_progress: 0.9, completed: 0.75, cancelled: 0.2 };

function title(rng: Rng, priority: string): string {
  const problem = rng.weighted(PROBLEMS);
  const where = rng.chance(0.55) ? ` in ${rng.pick(ROOMS)}` : '';
  return `${priority === '0' && rng.chance(0.5) ? 'URGENT: ' : ''}${problem}${where}`;
}

function description(rng: Rng): string | null {
  if (rng.chance(0.3)) return null;
  const first = rng.pick(DESCRIPTION_DETAILS);
  return rng.chance(0.4) ? `${first} ${rng.pick(DESCRIPTION_DETAILS)}` : first;
}

/** work_orders columns, in this order. */
export const WORK_ORDER_COLUMNS = [
  'team_id',
  'id',
  'number',
  'title',
  'description',
  'status',
  'priority',
  'availability',
  'self_resolved',
  'resolved_at',
  'intake_channel',
  'unit_id',
  'tenant_id',
  'contractor_id',
  'created_at',
  'updated_at',
] as const;

function* generateWorkOrders(
  rng: Rng,
  teamId: string,
  count: number,
  units: UnitsStream,
  linksByUnit: Map<string, { tenantId: string; at: number }[]>,
  contractorIds: string[],
): Generator<Row> {
  const { ids: unitIds, times: unitTimes } = units;
  if (unitIds.length !== unitTimes.length) throw new Error('work orders drawn before every unit was read');
  const times = sortedTimes(rng, count, unitTimes[0] ?? HISTORY_START, HISTORY_END);
  for (const [index, createdAt] of times.entries()) {
    const unitIndex = rng.int(0, Math.max(0, countUpTo(unitTimes, createdAt) - 1));
    const unitId = unitIds[unitIndex];
    const residents = (linksByUnit.get(unitId) ?? []).filter((link) => link.at <= createdAt);
    const tenantId = residents.length > 0 && rng.chance(0.85) ? rng.pick(residents).tenantId : null;
    const priority = rng.weighted([
      ['0', 5],
      ['1', 20],
      ['2', 50],
      ['3', 25],
    ] as const);
    const status = statusFor(rng, (HISTORY_END - createdAt) / DAY);
    const contractorId =
      contractorIds.length > 0 && rng.chance(CONTRACTOR_CHANCE[status]) ? rng.pick(contractorIds) : null;
    const resolvedAt = status === 'completed' ? Math.min(HISTORY_END, createdAt + rng.int(3_600_000, 21 * DAY)) : null;
    const touchedAt =
      resolvedAt ?? (status === 'reported' ? createdAt : Math.min(HISTORY_END, createdAt + rng.int(600_000, 5 * DAY)));
    yield [
      teamId,
      rng.uuid(),
      index + 1,
      title(rng, priority),
      description(rng),
      status,
      priority,
      rng.chance(0.55) ? rng.pick(AVAILABILITY) : null,
      status === 'completed' && contractorId === null,
      resolvedAt === null ? null : iso(resolvedAt),
      rng.weighted(INTAKE_CHANNELS),
      unitId,
      tenantId,
      contractorId,
      iso(createdAt),
      iso(touchedAt),
    ];
  }
}

/** The big team works across the main cities; a small team has a home city or two. */
function regionsFor(rng: Rng, big: boolean): Region[] {
  return big ? REGIONS.slice(0, 8) : rng.sample(REGIONS, rng.int(1, 2));
}

/** All of one team's rows, from its own generator: the same seed and size give the same rows. */
export function generateTeam(rng: Rng, name: string, size: TeamSize, big: boolean): TeamData {
  const id = rng.uuid();
  const regions = regionsFor(rng, big);
  const teamCreated = HISTORY_START - rng.int(1, 60) * DAY;
  const units = generateUnits(rng.fork('units'), id, size.units, regions);
  // Two forks of one state: the tenants' rows and their links are two passes over the same draws.
  const { tenants, tenantUnits, linksByUnit } = generateTenants(
    [rng.fork('tenants'), rng.fork('tenants')],
    id,
    size.tenants,
    units,
  );
  const landlords = generateLandlords(rng.fork('landlords'), id, size.landlords, regions);
  const contractors = generateContractors(rng.fork('contractors'), id, size.contractors, regions);
  const contractorIds = contractors.map((row) => row[1] as string);
  const workOrders = generateWorkOrders(
    rng.fork('work-orders'),
    id,
    size.workOrders,
    units,
    linksByUnit,
    contractorIds,
  );
  return {
    id,
    name,
    createdAt: iso(teamCreated),
    workOrderCount: size.workOrders,
    tables: [
      { table: 'units', rows: units.rows },
      { table: 'tenants', rows: tenants },
      { table: 'tenant_units', rows: tenantUnits },
      { table: 'landlords', rows: landlords },
      { table: 'contractors', rows: contractors },
      { table: 'work_orders', rows: workOrders },
    ],
  };
}
