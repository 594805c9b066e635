import type { Rng } from '../lib/prng.js';
import { DAY, HISTORY_END, HISTORY_START, iso } from './history.js';
import {
  BUILDING_NAMES,
  CERTIFICATIONS,
  COMMON_STREET,
  COMPANY_WORDS,
  FIRST_NAMES,
  INSURANCE_TYPES,
  LANDLORD_NOTES,
  LAST_NAMES,
  STREET_NAMES,
  STREET_SUFFIXES,
  TENANT_NOTES,
  TRADES,
  type Region,
} from './vocabulary.js';

/** One row's values in the column order of its table. */
export type Row = unknown[];

const POSTCODE_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

function postcode(rng: Rng, region: Region): string {
  const letter = (): string => POSTCODE_LETTERS[rng.int(0, POSTCODE_LETTERS.length - 1)];
  return `${rng.pick(region.postcodeAreas)}${rng.int(1, 28)} ${rng.int(1, 9)}${letter()}${letter()}`;
}

function street(rng: Rng): string {
  return rng.chance(0.02) ? COMMON_STREET : `${rng.pick(STREET_NAMES)} ${rng.pick(STREET_SUFFIXES)}`;
}

/** The CONTRACT's `fullAddress`: the non-empty parts in this order, joined by ", ". */
export function fullAddress(parts: (string | null)[]): string {
  return parts.filter((part): part is string => part !== null && part !== '').join(', ');
}

function phone(rng: Rng): string {
  // 07700 900000–900999 is Ofcom's range reserved for drama: realistic and never a real person.
  return `07700 900${String(rng.int(0, 999)).padStart(3, '0')}`;
}

function emailOf(first: string, last: string, n: number, domain = 'example.com'): string {
  return `${first}.${last}${n}@${domain}`.toLowerCase().replace(/[^a-z0-9.@]/g, '');
}

function personName(rng: Rng): [string, string] {
  return [rng.pick(FIRST_NAMES), rng.pick(LAST_NAMES)];
}

/** A team's units: their creation times (ascending) at once, their rows as they are read, which fill `ids` in order. */
export interface UnitsStream {
  times: number[];
  /** The ids of the rows read so far: all of them once `rows` has been read to the end. */
  ids: string[];
  rows: Generator<Row>;
}

/**
 * units columns: team_id, id, address_line1, address_line2, city, county, country, postcode, area, full_address,
 * created_at, updated_at. Rows are made as they are read (one at a time, for COPY), with the same draws as ever.
 */
export function generateUnits(rng: Rng, teamId: string, count: number, regions: Region[]): UnitsStream {
  const times = Array.from(
    { length: count },
    () => HISTORY_START + Math.floor(rng.next() * (HISTORY_END - 45 * DAY - HISTORY_START)),
  );
  times.sort((a, b) => a - b);
  const ids: string[] = [];
  function* rows(): Generator<Row> {
    for (const createdAt of times) {
      const region = rng.pick(regions);
      const road = `${rng.int(1, 240)} ${street(rng)}`;
      const kind = rng.weighted([
        ['house', 55],
        ['flat', 35],
        ['building', 10],
      ] as const);
      const line1 = kind === 'flat' ? `Flat ${rng.int(1, 24)}` : road;
      const line2 = kind === 'flat' ? road : kind === 'building' ? rng.pick(BUILDING_NAMES) : null;
      const area = rng.chance(0.6) ? rng.pick(region.areas) : null;
      const county = region.county !== null && rng.chance(0.7) ? region.county : null;
      const code = postcode(rng, region);
      const country = 'United Kingdom';
      const updatedAt = rng.chance(0.2) ? createdAt + rng.int(1, 300) * DAY : createdAt;
      const id = rng.uuid();
      ids.push(id);
      yield [
        teamId,
        id,
        line1,
        line2,
        region.city,
        county,
        country,
        code,
        area,
        fullAddress([line1, line2, area, region.city, county, code, country]),
        iso(createdAt),
        iso(Math.min(updatedAt, HISTORY_END)),
      ];
    }
  }
  return { times, ids, rows: rows() };
}

export interface TenantsAndLinks {
  /** tenants columns: team_id, id, first_name, last_name, email, phone_number, notes, created_at, updated_at. */
  tenants: Generator<Row>;
  /** tenant_units columns: team_id, id, tenant_id, unit_id, created_at. Fills `linksByUnit` as it is read. */
  tenantUnits: Generator<Row>;
  /** Who lives where from when: complete once `tenantUnits` has been read to the end. */
  linksByUnit: Map<string, { tenantId: string; at: number }[]>;
}

/** One tenant's row and the links that follow it, in the order of the generator's draws. */
interface TenantDraw {
  tenant: Row;
  links: { link: Row; unitId: string; at: number }[];
}

/** Most tenants live in one unit (some in two: a move, a second let); a few are not linked yet. */
function* drawTenants(
  rng: Rng,
  teamId: string,
  count: number,
  unitIds: string[],
  unitTimes: number[],
): Generator<TenantDraw> {
  if (unitIds.length !== unitTimes.length) throw new Error('tenants drawn before every unit was read');
  for (let i = 0; i < count; i++) {
    const id = rng.uuid();
    const home = unitIds.length > 0 ? rng.int(0, unitIds.length - 1) : -1;
    const earliest = home >= 0 ? unitTimes[home] : HISTORY_START;
    const createdAt = earliest + Math.floor(rng.next() * (HISTORY_END - earliest));
    const [first, last] = personName(rng);
    const tenant = [
      teamId,
      id,
      first,
      last,
      rng.chance(0.75) ? emailOf(first, last, i) : null,
      rng.chance(0.8) ? phone(rng) : null,
      rng.chance(0.1) ? rng.pick(TENANT_NOTES) : null,
      iso(createdAt),
      iso(rng.chance(0.3) ? Math.min(HISTORY_END, createdAt + rng.int(1, 200) * DAY) : createdAt),
    ];
    const links: TenantDraw['links'] = [];
    if (home >= 0 && !rng.chance(0.05)) {
      const homes = rng.chance(0.1) ? [home, rng.int(0, unitIds.length - 1)] : [home];
      for (const [position, unit] of [...new Set(homes)].entries()) {
        const at = Math.max(createdAt, unitTimes[unit]) + position * rng.int(1, 90) * DAY;
        if (at > HISTORY_END) continue;
        links.push({ link: [teamId, rng.uuid(), id, unitIds[unit], iso(at)], unitId: unitIds[unit], at });
      }
    }
    yield { tenant, links };
  }
}

/**
 * Tenants and their links to units, as two streams read one after the other (a link's tenant must be stored
 * first): each draws the same sequence from its own copy of the generator (`rngs`, two forks of one state), so
 * neither holds the other's rows. Both read `units.ids`, so they may only be read after the units.
 */
export function generateTenants(
  rngs: readonly [Rng, Rng],
  teamId: string,
  count: number,
  units: UnitsStream,
): TenantsAndLinks {
  const linksByUnit = new Map<string, { tenantId: string; at: number }[]>();
  function* tenants(): Generator<Row> {
    for (const { tenant } of drawTenants(rngs[0], teamId, count, units.ids, units.times)) yield tenant;
  }
  function* tenantUnits(): Generator<Row> {
    for (const { links } of drawTenants(rngs[1], teamId, count, units.ids, units.times)) {
      for (const { link, unitId, at } of links) {
        const living = linksByUnit.get(unitId) ?? [];
        living.push({ tenantId: link[2] as string, at });
        linksByUnit.set(unitId, living);
        yield link;
      }
    }
  }
  return { tenants: tenants(), tenantUnits: tenantUnits(), linksByUnit };
}

function someAddress(rng: Rng, region: Region): string {
  return fullAddress([`${rng.int(1, 240)} ${street(rng)}`, region.city, postcode(rng, region), 'United Kingdom']);
}

/** landlords columns: team_id, id, name, email, phone_number, full_address, status, notes, created_at, updated_at. */
export function generateLandlords(rng: Rng, teamId: string, count: number, regions: Region[]): Row[] {
  return sortedCreations(rng, count).map((createdAt, i) => {
    const [first, last] = personName(rng);
    const company = rng.chance(0.4);
    const name = company
      ? `${last} ${rng.pick(['Property Holdings Ltd', 'Estates Ltd', 'Lettings LLP', 'Homes Ltd'])}`
      : `${first} ${last}`;
    return [
      teamId,
      rng.uuid(),
      name,
      rng.chance(0.85) ? emailOf(first, last, i, company ? 'landlords.example.com' : 'example.org') : null,
      rng.chance(0.7) ? phone(rng) : null,
      rng.chance(0.8) ? someAddress(rng, rng.pick(regions)) : null,
      rng.chance(0.9) ? 'active' : 'inactive',
      rng.chance(0.15) ? rng.pick(LANDLORD_NOTES) : null,
      iso(createdAt),
      iso(createdAt),
    ];
  });
}

/**
 * contractors columns: team_id, id, company_name, contact_name, email, phone_number, full_address, status,
 * trades, coverage_postcodes, certifications, insurance, notes, created_at, updated_at.
 */
export function generateContractors(rng: Rng, teamId: string, count: number, regions: Region[]): Row[] {
  return sortedCreations(rng, count).map((createdAt, i) => {
    const [first, last] = personName(rng);
    const trades = rng.sample(
      TRADES,
      rng.weighted([
        [1, 50],
        [2, 35],
        [3, 15],
      ] as const),
    );
    const company = rng.chance(0.5)
      ? `${last} ${trades[0]} Ltd`
      : `${rng.pick(COMPANY_WORDS)} ${trades[0]} ${rng.pick(['Services', 'Solutions', 'Co'])}`;
    const region = rng.pick(regions);
    const coverage = [
      ...new Set(Array.from({ length: rng.int(2, 12) }, () => `${rng.pick(region.postcodeAreas)}${rng.int(1, 28)}`)),
    ];
    const expiry = (): string => iso(HISTORY_END + rng.int(-60, 700) * DAY);
    const certifications = rng
      .sample(CERTIFICATIONS, rng.int(0, 2))
      .map((type) => ({ type, registrationNumber: String(rng.int(100000, 999999)), expiryDate: expiry() }));
    const insurance = rng
      .sample(INSURANCE_TYPES, rng.int(0, 2))
      .map((type) => ({ type, amount: rng.pick([1_000_000, 2_000_000, 5_000_000, 10_000_000]), expiryDate: expiry() }));
    return [
      teamId,
      rng.uuid(),
      company,
      `${first} ${last}`,
      rng.chance(0.9) ? emailOf(first, last, i, 'trades.example.com') : null,
      rng.chance(0.9) ? phone(rng) : null,
      rng.chance(0.6) ? someAddress(rng, region) : null,
      rng.weighted([
        ['active', 85],
        ['inactive', 10],
        ['on_holiday', 5],
      ] as const),
      trades,
      coverage,
      JSON.stringify(certifications),
      JSON.stringify(insurance),
      rng.chance(0.1) ? 'Out-of-hours call-out available.' : null,
      iso(createdAt),
      iso(createdAt),
    ];
  });
}

/** Landlords and contractors mostly join early in a team's history. */
function sortedCreations(rng: Rng, count: number): number[] {
  const span = HISTORY_END - HISTORY_START;
  return Array.from({ length: count }, () => HISTORY_START + Math.floor(rng.next() ** 2 * span)).sort((a, b) => a - b);
}
