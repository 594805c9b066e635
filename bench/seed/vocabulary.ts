/** Word lists for realistic UK lettings data. Only the generators read these. */

const words = (list: string): string[] => list.split('|');

export interface Region {
  city: string;
  county: string | null;
  /** Postcode areas (the letters before the district number). */
  postcodeAreas: readonly string[];
  /** Districts and neighbourhoods, used as `area`. */
  areas: readonly string[];
}

export const REGIONS: readonly Region[] = [
  {
    city: 'London',
    county: null,
    postcodeAreas: ['E', 'N', 'NW', 'SE', 'SW', 'W'],
    areas: ['Camden', 'Hackney', 'Islington', 'Brixton', 'Clapham', 'Walthamstow', 'Peckham', 'Ealing', 'Stratford'],
  },
  {
    city: 'Manchester',
    county: 'Greater Manchester',
    postcodeAreas: ['M'],
    areas: ['Didsbury', 'Chorlton', 'Ancoats', 'Fallowfield', 'Levenshulme', 'Withington', 'Rusholme'],
  },
  {
    city: 'Leeds',
    county: 'West Yorkshire',
    postcodeAreas: ['LS'],
    areas: ['Headingley', 'Chapel Allerton', 'Roundhay', 'Hyde Park', 'Armley', 'Kirkstall'],
  },
  {
    city: 'Birmingham',
    county: 'West Midlands',
    postcodeAreas: ['B'],
    areas: ['Edgbaston', 'Moseley', 'Harborne', 'Selly Oak', 'Digbeth', 'Kings Heath'],
  },
  {
    city: 'Bristol',
    county: null,
    postcodeAreas: ['BS'],
    areas: ['Clifton', 'Redland', 'Bedminster', 'Easton', 'Southville', 'Bishopston'],
  },
  {
    city: 'Liverpool',
    county: 'Merseyside',
    postcodeAreas: ['L'],
    areas: ['Anfield', 'Wavertree', 'Toxteth', 'Allerton'],
  },
  {
    city: 'Sheffield',
    county: 'South Yorkshire',
    postcodeAreas: ['S'],
    areas: ['Ecclesall', 'Crookes', 'Hillsborough'],
  },
  { city: 'Nottingham', county: 'Nottinghamshire', postcodeAreas: ['NG'], areas: ['Beeston', 'Sneinton', 'Lenton'] },
  { city: 'Cardiff', county: null, postcodeAreas: ['CF'], areas: ['Cathays', 'Roath', 'Canton', 'Splott'] },
  { city: 'Glasgow', county: null, postcodeAreas: ['G'], areas: ['Partick', 'Dennistoun', 'Shawlands', 'Govanhill'] },
  {
    city: 'Edinburgh',
    county: null,
    postcodeAreas: ['EH'],
    areas: ['Leith', 'Morningside', 'Marchmont', 'Stockbridge'],
  },
  { city: 'Brighton', county: 'East Sussex', postcodeAreas: ['BN'], areas: ['Kemptown', 'Hove', 'Preston Park'] },
  { city: 'Reading', county: 'Berkshire', postcodeAreas: ['RG'], areas: ['Caversham', 'Earley', 'Tilehurst'] },
  { city: 'Oxford', county: 'Oxfordshire', postcodeAreas: ['OX'], areas: ['Jericho', 'Cowley', 'Headington'] },
  { city: 'York', county: 'North Yorkshire', postcodeAreas: ['YO'], areas: ['Clifton', 'Fulford', 'Heworth'] },
];

/** "Station Road" is the most common street name in the UK; the tenant search scenario looks for it. */
export const COMMON_STREET = 'Station Road';

export const STREET_NAMES: readonly string[] = words(
  'High|Church|Park|Victoria|Green|Manor|Kings|Queens|Mill|Grange|Springfield|Chestnut|Acacia|' +
    'Beech|Willow|Elm|Oak|Cedar|Orchard|Meadow|Albert|Windsor|York|Richmond|Stanley|Alexandra|' +
    'Princes|New|School|North|South|West|East|Highfield|St Johns|St Marys|Cromwell|Nelson|Wellington|' +
    'Brunswick|Clarence|Grosvenor|Lansdowne|Belmont|Hawthorn|Rowan|Sycamore|Ash|Lime|Poplar|Holly|' +
    'Ivy|Laurel|Heather|Bramble|Foxglove|Primrose|Cherry|Maple|Birch|Hazel|Fern|Linden|Rose|Kingsway|' +
    'Marlborough|Devonshire|Cambridge|Oxford|Mount Pleasant|Valley|Riverside|Canal|Bridge|Castle|' +
    'Abbey|Chapel|Market|Forge|Tannery|Foundry|Wharf|Quay',
);

export const STREET_SUFFIXES: readonly string[] = words(
  'Road|Street|Lane|Avenue|Close|Gardens|Crescent|Drive|Way|Terrace|Grove|Place|Court|Mews|Row|' + 'Walk',
);

export const BUILDING_NAMES: readonly string[] = words(
  'Albion House|Victoria Court|The Maltings|Riverside Apartments|Crown Buildings|Mill House|' +
    'Kings Lodge|Park View|The Old Bakery|Waterside Court|Sovereign House|Quayside Lofts',
);

export const FIRST_NAMES: readonly string[] = words(
  'Oliver|Amelia|George|Isla|Harry|Ava|Noah|Mia|Jack|Ivy|Leo|Lily|Arthur|Isabella|Muhammad|Rosie|' +
    'Oscar|Sophia|Charlie|Grace|Jacob|Freya|Thomas|Poppy|Henry|Evie|William|Ella|James|Emily|Alfie|' +
    'Chloe|Joshua|Jessica|Daniel|Hannah|Samuel|Lucy|Adam|Megan|Ryan|Sarah|Liam|Zara|Ethan|Aisha|' +
    'Mohammed|Priya|Arjun|Fatima|Kwame|Chidi|Wei|Mei|Tomasz|Agnieszka|Sean|Siobhan|Rhys|Cerys|Callum|' +
    'Eilidh|Fraser|Niamh|David|Susan|Peter|Margaret|Paul|Karen|Mark|Julie',
);

export const LAST_NAMES: readonly string[] = words(
  'Smith|Jones|Williams|Taylor|Brown|Davies|Evans|Wilson|Thomas|Johnson|Roberts|Robinson|Thompson|' +
    'Wright|Walker|White|Edwards|Hughes|Green|Hall|Lewis|Harris|Clarke|Patel|Jackson|Wood|Turner|' +
    'Martin|Cooper|Hill|Ward|Morris|Moore|Clark|Lee|King|Baker|Harrison|Morgan|Allen|James|Scott|' +
    'Phillips|Watson|Davis|Parker|Price|Bennett|Young|Griffiths|Mitchell|Kelly|Cook|Carter|' +
    'Richardson|Bailey|Collins|Bell|Shaw|Murphy|Miller|Cox|Richards|Khan|Ali|Ahmed|Begum|Singh|Kaur|' +
    "Okafor|Mensah|Nowak|Kowalski|Chen|Wang|O'Brien|MacDonald|Campbell",
);

export const TRADES: readonly string[] = words(
  'Plumbing|Heating|Gas engineer|Electrical|Roofing|Carpentry|Painting and decorating|Locksmith|' +
    'Glazing|Pest control|Gardening|Cleaning|Damp proofing|Appliance repair|General maintenance|' +
    'Plastering|Flooring|Drainage',
);

export const COMPANY_WORDS: readonly string[] = words(
  'Apex|Premier|Reliable|Swift|City|County|Northern|Southern|Capital|Crown|Elite|Allied|Ace|Rapid|' +
    'Trusted|Pioneer|Summit|Anchor|Beacon|Keystone',
);

export const CERTIFICATIONS: readonly string[] = ['Gas Safe', 'NICEIC', 'TrustMark', 'CHAS', 'FENSA', 'NAPIT', 'OFTEC'];

export const INSURANCE_TYPES: readonly string[] = ['Public liability', 'Employers liability', 'Professional indemnity'];

/** Problems as tenants report them; about one in ten mentions a leak. */
export const PROBLEMS: readonly (readonly [string, number])[] = [
  ['Leaking tap', 3],
  ['Leak under sink', 2],
  ['Roof leak', 1.5],
  ['Leaking radiator valve', 1],
  ['Water leak from ceiling', 1.5],
  ['Leaking shower tray', 1],
  ['Boiler not firing', 4],
  ['No hot water', 4],
  ['Radiator cold at the top', 2],
  ['Blocked toilet', 3],
  ['Blocked kitchen sink', 2],
  ['Slow-draining bath', 2],
  ['Dripping overflow pipe', 1.5],
  ['Damp patch on wall', 3],
  ['Black mould around window', 3],
  ['Condensation on windows', 1.5],
  ['Broken window latch', 2],
  ['Cracked window pane', 1],
  ['Front door lock sticking', 2],
  ['Lost keys, lock change', 1],
  ['Extractor fan not working', 2],
  ['Oven not heating', 2],
  ['Fridge freezer not cooling', 1.5],
  ['Washing machine not draining', 2],
  ['Dishwasher error code', 1],
  ['Smoke alarm beeping', 2.5],
  ['Carbon monoxide alarm fault', 1],
  ['Tripping electrics', 2],
  ['Light fitting not working', 2],
  ['Sockets not working', 1.5],
  ['Mice in the kitchen', 1],
  ['Wasps nest under eaves', 0.5],
  ['Loose stair banister', 1],
  ['Cupboard door hanging off', 1.5],
  ['Cracked bathroom tiles', 1],
  ['Mould in bathroom sealant', 1.5],
  ['Gutter overflowing', 1],
  ['Fence panel blown down', 1],
  ['Garden overgrown', 0.5],
  ['Intercom not working', 1],
  ['Communal light out', 1],
  ['Shower pressure low', 2],
  ['Toilet cistern running constantly', 2],
  ['Thermostat not responding', 1.5],
  ['Draught from front door', 1],
  ['Peeling paint on ceiling', 0.5],
];

export const ROOMS: readonly string[] = words(
  'kitchen|bathroom|en-suite|main bedroom|second bedroom|living room|hallway|utility room|' +
    'downstairs toilet|loft|garden|communal stairwell',
);

export const DESCRIPTION_DETAILS: readonly string[] = words(
  'Started a few days ago and is getting worse.|Tenant has tried turning it off and on again.|' +
    'Happens mostly in the mornings.|' +
    'There is a small child in the property, please treat as a priority.|Photos sent by email.|' +
    'Previous repair last winter did not fix it.|Neighbour below has reported water coming through.|' +
    'Tenant is working from home and can give access most days.|Noticed after the recent storm.|' +
    'Please call before attending.',
);

export const AVAILABILITY: readonly string[] = words(
  'Weekdays after 5pm|Any time, key in key safe|Mornings only|Weekends|Tuesdays and Thursdays|' +
    'Working from home Mon-Wed|Please call ahead: 30 minutes notice|Afternoons, not Fridays',
);

export const TENANT_NOTES: readonly string[] = words(
  'Prefers contact by email.|Has a dog; please knock loudly.|Guarantor on file.|' +
    'Speaks Polish; text preferred.|Renewal due next spring.|Requested a parking permit.',
);

export const LANDLORD_NOTES: readonly string[] = words(
  'Approves repairs up to £250 without asking.|Overseas landlord: email only.|' +
    'Prefers own contractors for gas work.|Portfolio reviewed quarterly.',
);

export const INTAKE_CHANNELS: readonly (readonly [string, number])[] = [
  ['api', 45],
  ['portal', 30],
  ['phone', 18],
  ['email', 7],
];
