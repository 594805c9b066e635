// The sandbox's sample portfolio (CONTRACT "Test mode (sandbox)"): a small, realistic portfolio drawn by a seeded
// generator, so every reset with `sampleData` gives the same records (apart from their ids and times). Plain data
// and pure functions: the loader (sample-data.loader.ts) writes it through the resources' own services.
// Phone numbers come from Ofcom's ranges reserved for drama; emails use the reserved example.com domain.

/** How many records of each kind the sample holds (the contract's floor: 20, 30, 3, 5 and 40). */
export const SAMPLE_COUNTS = { landlords: 4, contractors: 6, units: 24, tenants: 36, workOrders: 48 } as const;

/** The seed of the generator: change it and every sandbox's sample changes. */
const SEED = 0x5eed_2026;

/** A work order's statuses in the order the sample moves it through them (the first is always `reported`). */
export type SampleStatusPath =
  ['reported'] | ['reported', 'in_progress'] | ['reported', 'in_progress', 'completed'] | ['reported', 'cancelled'];

export interface SampleWorkOrder {
  body: {
    externalRef: string;
    title: string;
    description: string;
    priority: '0' | '1' | '2' | '3';
    availability: string | null;
  };
  /** Indexes into the sample's units, tenants (null: none) and contractors (null: not assigned). */
  unit: number;
  tenant: number | null;
  contractor: number | null;
  statuses: SampleStatusPath;
  /** Notes written on it, oldest first. */
  notes: string[];
}

export interface SamplePortfolio {
  landlords: object[];
  contractors: object[];
  units: object[];
  /** A tenant's body without `unitIds`, and the indexes of its units. */
  tenants: Array<{ body: object; units: number[] }>;
  workOrders: SampleWorkOrder[];
}

/** mulberry32: a small, fast 32-bit generator, good enough for sample data and the same on every platform. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FIRST_NAMES = [
  'Olivia',
  'Noah',
  'Amelia',
  'Oliver',
  'Isla',
  'George',
  'Ava',
  'Arthur',
  'Mia',
  'Leo',
  'Freya',
  'Harry',
  'Priya',
  'Mohammed',
  'Zara',
  'Kofi',
  'Niamh',
  'Tomasz',
  'Aisha',
  'Callum',
  'Chloe',
  'Ravi',
  'Ellie',
  'Jamal',
];
const LAST_NAMES = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Okafor',
  'Kowalski',
  'Murphy',
  'Ali',
];
const STREETS = [
  'Elm Grove',
  'Cotham Road',
  'St Michael’s Hill',
  'Gloucester Road',
  'Whiteladies Road',
  'Chandos Road',
  'North Street',
  'Cheltenham Road',
  'Ashley Road',
  'Stokes Croft',
  'Coronation Road',
  'Zetland Road',
];
/** Areas of Bristol with their postcode districts. */
const AREAS: Array<[area: string, district: string]> = [
  ['Redland', 'BS6'],
  ['Cotham', 'BS6'],
  ['Clifton', 'BS8'],
  ['Bedminster', 'BS3'],
  ['Montpelier', 'BS6'],
  ['Easton', 'BS5'],
  ['Southville', 'BS3'],
  ['Bishopston', 'BS7'],
];
const POSTCODE_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';

/** Trades with the jobs a tenant reports for them: [title, description]. */
const JOBS: Record<string, Array<[string, string]>> = {
  plumbing: [
    ['Leaking tap in kitchen', 'The cold tap drips constantly, even when turned off fully.'],
    ['Blocked bathroom sink', 'Water drains very slowly and smells; plunging has not helped.'],
    ['Toilet keeps running', 'The cistern refills every few minutes through the night.'],
  ],
  heating: [
    ['Boiler not firing', 'No heating or hot water since this morning; the boiler shows fault code F28.'],
    ['Radiator cold at the top', 'The living-room radiator is cold at the top and warm at the bottom.'],
    ['Low boiler pressure', 'The pressure gauge keeps dropping below 1 bar and the heating cuts out.'],
  ],
  electrical: [
    ['Kitchen sockets not working', 'Two double sockets by the worktop stopped working; the RCD trips.'],
    ['Hall light flickering', 'The ceiling light in the hall flickers and buzzes when switched on.'],
  ],
  roofing: [
    ['Damp patch on bedroom ceiling', 'A brown patch is spreading under the roof after heavy rain.'],
    ['Slipped roof tiles', 'Several tiles slipped in last night’s wind; some are in the garden.'],
  ],
  carpentry: [
    ['Back door sticking', 'The back door swells and will not close or lock without force.'],
    ['Kitchen cupboard door hanging off', 'A hinge has pulled out of the cupboard under the sink.'],
  ],
  glazing: [
    ['Cracked bedroom window', 'The outer pane of the bedroom window is cracked across one corner.'],
    ['Condensation between panes', 'The living-room double glazing has misted up between the panes.'],
  ],
};
const TRADES = Object.keys(JOBS);
const AVAILABILITY = [
  'Weekdays after 2 pm',
  'Mornings before 11 am',
  'Any time; a key is with the neighbour at number 12',
  'Saturdays only',
  null,
];
const NOTES: Record<SampleStatusPath[number], string[]> = {
  reported: [
    'Tenant sent photos by email; waiting for a contractor’s quote.',
    'Asked the tenant for a good time to visit.',
  ],
  in_progress: [
    'Contractor booked for Tuesday morning.',
    'Parts ordered; the contractor returns on Friday to fit them.',
  ],
  completed: ['Fixed and tested; the tenant confirmed all is well.', 'Invoice received and passed for payment.'],
  cancelled: ['Tenant fixed it themselves; no visit needed.', 'Reported twice: the other work order covers it.'],
};
const STATUS_PATHS: SampleStatusPath[] = [
  ['reported'],
  ['reported', 'in_progress'],
  ['reported', 'in_progress', 'completed'],
  ['reported', 'cancelled'],
];
const COMPANY_WORDS = ['Brightwater', 'Severn', 'Avon', 'Harbourside', 'Kingsdown', 'Totterdown', 'Cabot', 'Ashton'];

const pad = (n: number, width = 3): string => String(n).padStart(width, '0');
const phone = (n: number): string => `07700 900${pad(n % 1000)}`;

/** The sample portfolio: the same every time (the generator is seeded), with every status among its work orders. */
export function samplePortfolio(): SamplePortfolio {
  const random = generator(SEED);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const person = (): [string, string] => [pick(FIRST_NAMES), pick(LAST_NAMES)];
  const email = (first: string, last: string, n: number): string =>
    `${first}.${last}${n}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, '');

  const landlords = Array.from({ length: SAMPLE_COUNTS.landlords }, (_, i) => {
    const [first, last] = person();
    const [area, district] = pick(AREAS);
    return {
      externalRef: `SANDBOX-LL-${pad(i + 1)}`,
      name: `${first} ${last}`,
      email: email(first, last, i + 1),
      phoneNumber: phone(400 + i),
      fullAddress: `${10 + i * 7} ${pick(STREETS)}, ${area}, Bristol ${district} ${1 + i}${pick([...POSTCODE_LETTERS])}${pick([...POSTCODE_LETTERS])}`,
      status: i === SAMPLE_COUNTS.landlords - 1 ? 'inactive' : 'active',
      notes: i === 0 ? 'Prefers email. Repairs over £500 need approval first.' : null,
    };
  });

  const contractors = Array.from({ length: SAMPLE_COUNTS.contractors }, (_, i) => {
    const trade = TRADES[i % TRADES.length];
    const [first, last] = person();
    const company = `${COMPANY_WORDS[i % COMPANY_WORDS.length]} ${trade[0].toUpperCase()}${trade.slice(1)} Ltd`;
    return {
      externalRef: `SANDBOX-SUP-${pad(i + 1)}`,
      companyName: company,
      contactName: `${first} ${last}`,
      email: `bookings@${COMPANY_WORDS[i % COMPANY_WORDS.length].toLowerCase()}-${trade}.example.com`,
      phoneNumber: `0117 496 0${pad(100 + i * 11)}`,
      fullAddress: `Unit ${i + 3}, St Philips Trading Estate, Bristol BS2 0JZ`,
      status: 'active',
      trades: i === 0 ? [trade, 'heating'] : [trade],
      coveragePostcodes: [...new Set(AREAS.map(([, district]) => district))].slice(0, 2 + (i % 4)),
      certifications:
        trade === 'heating' || trade === 'electrical'
          ? [
              {
                type: trade === 'heating' ? 'Gas Safe' : 'NICEIC',
                registrationNumber: String(500_000 + i * 1_337),
                expiryDate: `2027-0${(i % 9) + 1}-28T00:00:00.000Z`,
              },
            ]
          : [],
      insurance: [
        { type: 'Public liability', amount: 2_000_000 + i * 1_000_000, expiryDate: '2027-06-30T00:00:00.000Z' },
      ],
      notes: null,
    };
  });

  const units = Array.from({ length: SAMPLE_COUNTS.units }, (_, i) => {
    const [area, district] = AREAS[i % AREAS.length];
    const house = 2 + Math.floor(random() * 120);
    const flat = i % 3 === 0 ? null : `Flat ${1 + (i % 4)}`;
    const inward = `${1 + Math.floor(random() * 9)}${pick([...POSTCODE_LETTERS])}${pick([...POSTCODE_LETTERS])}`;
    return {
      externalRef: `SANDBOX-UNIT-${pad(i + 1)}`,
      addressLine1: flat ?? `${house} ${STREETS[i % STREETS.length]}`,
      addressLine2: flat ? `${house} ${STREETS[i % STREETS.length]}` : null,
      area,
      city: 'Bristol',
      county: null,
      postcode: `${district} ${inward}`,
      country: 'United Kingdom',
    };
  });

  const tenants = Array.from({ length: SAMPLE_COUNTS.tenants }, (_, i) => {
    const [first, last] = person();
    return {
      body: {
        externalRef: `SANDBOX-TEN-${pad(i + 1)}`,
        firstName: first,
        lastName: last,
        email: email(first, last, i + 1),
        phoneNumber: phone(100 + i),
        notes: i % 7 === 0 ? 'Works nights: visits after 2 pm, please.' : null,
      },
      // Every unit is let; some to two tenants (a couple, flatmates).
      units: [i % SAMPLE_COUNTS.units],
    };
  });

  const workOrders = Array.from({ length: SAMPLE_COUNTS.workOrders }, (_, i): SampleWorkOrder => {
    const contractor = i % SAMPLE_COUNTS.contractors;
    const trade = TRADES[contractor % TRADES.length];
    const [title, description] = pick(JOBS[trade]);
    const statuses = STATUS_PATHS[i % STATUS_PATHS.length];
    const tenant = i % 5 === 4 ? null : (i * 7) % SAMPLE_COUNTS.tenants;
    const unit = tenant === null ? i % SAMPLE_COUNTS.units : tenants[tenant].units[0];
    const assigned = statuses.length > 1 && statuses[1] !== 'cancelled';
    const notes = statuses.map((status) => pick(NOTES[status])).slice(0, 1 + (i % 3));
    return {
      body: {
        externalRef: `SANDBOX-JOB-${pad(i + 1)}`,
        title,
        description,
        priority: pick(['0', '1', '1', '2', '2', '3'] as const),
        availability: pick(AVAILABILITY),
      },
      unit,
      tenant,
      contractor: assigned ? contractor : null,
      statuses,
      notes: i % 4 === 0 ? [] : notes,
    };
  });

  return { landlords, contractors, units, tenants, workOrders };
}
