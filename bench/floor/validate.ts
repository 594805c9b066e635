import { parse } from 'node:querystring';
import { HttpError } from './http.js';

/**
 * The service's input rules for the routes the floor serves, written out by hand: trimming, unknown
 * properties refused, one message per field (the first rule that fails, in the order the service checks them),
 * all joined with "; ".
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// eslint-disable-next-line no-control-regex -- the unit separator joins searched fields in the indexes
const CONTROL = /^[^\u0000-\u001f]*$/;

export const STATUSES = ['reported', 'in_progress', 'completed', 'cancelled'] as const;
export const PRIORITIES = ['0', '1', '2', '3'] as const;
export type Status = (typeof STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];

type Rule = [test: (value: unknown) => boolean, message: string];

/** How a field treats absence: `optional` skips null and undefined, `omittable` only undefined. */
interface Field {
  name: string;
  presence: 'required' | 'optional' | 'omittable';
  transform?: (value: unknown) => unknown;
  rules: Rule[];
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isUuid = (value: unknown): boolean => isString(value) && UUID.test(value);
const oneOf = (values: readonly string[], value: unknown): boolean => isString(value) && values.includes(value);

function trimDeep(value: unknown, path: string): unknown {
  if (isString(value)) {
    if (value.includes('\u0000')) throw new HttpError(400, `${path || 'value'} must not contain NUL characters`);
    return value.trim();
  }
  if (Array.isArray(value))
    return value.map((item, index) => trimDeep(item, path ? `${path}.${index}` : String(index)));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, trimDeep(item, path ? `${path}.${key}` : key)]),
    );
  }
  return value;
}

/** How an unknown name is refused: a body's property, or a query parameter (the service's words for each). */
const UNKNOWN_PROPERTY = (key: string): string => `property ${key} should not exist`;
const UNKNOWN_PARAMETER = (key: string): string => `query parameter ${key} is not allowed`;

function validate(
  input: Record<string, unknown>,
  fields: Field[],
  unknown: (key: string) => string = UNKNOWN_PROPERTY,
): Record<string, unknown> {
  const value = trimDeep(input, '') as Record<string, unknown>;
  const known = new Set(fields.map((field) => field.name));
  const errors = Object.keys(value)
    .filter((key) => !known.has(key))
    .map(unknown);
  const output: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = field.transform ? field.transform(value[field.name]) : value[field.name];
    if (raw !== undefined || field.name in value) output[field.name] = raw;
    if (field.presence === 'optional' && (raw === undefined || raw === null)) continue;
    if (field.presence === 'omittable' && raw === undefined) continue;
    // As the service says it: a required field left out is "required", not the first rule a value must meet.
    if (raw === undefined) {
      errors.push(`${field.name} is required`);
      continue;
    }
    const failed = field.rules.find(([test]) => !test(raw));
    if (failed) errors.push(failed[1]);
  }
  if (errors.length > 0) throw new HttpError(400, errors.join('; '));
  return output;
}

const emptyToNull = (value: unknown): unknown => (value === '' ? null : value);
const toInteger = (value: unknown): unknown => (isString(value) && /^-?\d{1,9}$/.test(value) ? Number(value) : value);
/** As the service's CommaList: each value (a repeated parameter too) split; none left is no filter. */
const commaList = (value: unknown): unknown => {
  const values: unknown[] = Array.isArray(value) ? value : [value];
  if (!values.every(isString)) return value;
  const parts = values
    .flatMap((item) => item.split(','))
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return parts.length > 0 ? parts : undefined;
};
const integerToText = (value: unknown): unknown =>
  typeof value === 'number' && Number.isInteger(value) ? String(value) : value;

function intRange(name: string, min: number, max: number): Field {
  return {
    name,
    presence: 'optional',
    transform: toInteger,
    rules: [
      [(v) => typeof v === 'number' && v <= max, `${name} must not be greater than ${max}`],
      [(v) => typeof v === 'number' && v >= min, `${name} must not be less than ${min}`],
      [(v) => Number.isInteger(v), `${name} must be an integer number`],
    ],
  };
}

const PAGE_FIELDS: Field[] = [
  intRange('page', 1, 1_000_000),
  intRange('pageSize', 1, 50),
  {
    name: 'search',
    presence: 'optional',
    rules: [
      [(v) => isString(v) && CONTROL.test(v), 'search must not contain control characters'],
      [(v) => isString(v) && v.length <= 200, 'search must be shorter than or equal to 200 characters'],
      [isString, 'search must be a string'],
    ],
  },
];

function enumList(name: string, values: readonly string[]): Field {
  return {
    name,
    presence: 'optional',
    transform: commaList,
    rules: [
      [
        (v) => Array.isArray(v) && v.every((item) => oneOf(values, item)),
        `each value in ${name} must be one of the following values: ${values.join(', ')}`,
      ],
    ],
  };
}

const uuidFilter = (name: string): Field => ({
  name,
  presence: 'optional',
  rules: [[isUuid, `${name} must be a UUID`]],
});

export interface PageParams {
  page: number;
  pageSize: number;
  /** The ILIKE pattern, or undefined when there is no search. */
  pattern?: string;
}

export interface WorkOrderFilters extends PageParams {
  status?: Status[];
  priority?: Priority[];
  unitId?: string;
  tenantId?: string;
  contractorId?: string;
}

/** The search term as an ILIKE pattern: `\`, `%` and `_` taken literally. */
function containsPattern(search: unknown): string | undefined {
  if (!isString(search) || search === '') return undefined;
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function pageParams(values: Record<string, unknown>): PageParams {
  return {
    page: (values.page as number | undefined) ?? 1,
    pageSize: (values.pageSize as number | undefined) ?? 20,
    pattern: containsPattern(values.search),
  };
}

/** Express 5's default ("simple") query parser: repeated keys become arrays. */
function queryOf(search: string): Record<string, unknown> {
  return { ...parse(search.startsWith('?') ? search.slice(1) : search) };
}

export function workOrderListQuery(search: string): WorkOrderFilters {
  const values = validate(
    queryOf(search),
    [
      enumList('status', STATUSES),
      enumList('priority', PRIORITIES),
      uuidFilter('unitId'),
      uuidFilter('tenantId'),
      uuidFilter('contractorId'),
      ...PAGE_FIELDS,
    ],
    UNKNOWN_PARAMETER,
  );
  const list = <T>(key: string): T[] | undefined => {
    const items = values[key] as T[] | undefined;
    return items && items.length > 0 ? items : undefined;
  };
  return {
    ...pageParams(values),
    status: list<Status>('status'),
    priority: list<Priority>('priority'),
    unitId: values.unitId as string | undefined,
    tenantId: values.tenantId as string | undefined,
    contractorId: values.contractorId as string | undefined,
  };
}

export function tenantListQuery(search: string): PageParams {
  return pageParams(validate(queryOf(search), PAGE_FIELDS, UNKNOWN_PARAMETER));
}

export interface WorkOrderInput {
  status?: Status;
  title?: string;
  description?: string | null;
  unitId?: string;
  tenantId?: string | null;
  contractorId?: string | null;
  availability?: string | null;
  priority?: Priority;
}

function textField(name: string, max: number, presence: Field['presence']): Field {
  const rules: Rule[] = [[isString, `${name} must be a string`]];
  if (presence !== 'optional') rules.push([(v) => v !== '', `${name} should not be empty`]);
  rules.push([(v) => isString(v) && v.length <= max, `${name} must be shorter than or equal to ${max} characters`]);
  return { name, presence, transform: presence === 'optional' ? emptyToNull : undefined, rules };
}

function linkField(name: string, presence: Field['presence']): Field {
  return {
    name,
    presence,
    transform: presence === 'optional' ? emptyToNull : undefined,
    rules: [
      [isUuid, `${name} must be a UUID`],
      [(v) => v !== '' && v !== null && v !== undefined, `${name} should not be empty`],
    ],
  };
}

function workOrderFields(update: boolean): Field[] {
  const required = update ? 'omittable' : 'required';
  const priorityRule: Rule = [
    (v) => oneOf(PRIORITIES, v),
    'priority must be one of "0", "1", "2", "3" (or the integers 0 to 3)',
  ];
  const fields: Field[] = [
    textField('title', 260, required),
    textField('description', 10_000, 'optional'),
    linkField('unitId', required),
    linkField('tenantId', 'optional'),
    linkField('contractorId', 'optional'),
    textField('availability', 260, 'optional'),
    { name: 'priority', presence: 'omittable', transform: integerToText, rules: [priorityRule] },
  ];
  if (!update) return fields;
  const statusRule: Rule = [
    (v) => oneOf(STATUSES, v),
    `status must be one of the following values: ${STATUSES.join(', ')}`,
  ];
  return [{ name: 'status', presence: 'omittable', rules: [statusRule] }, ...fields];
}

export function createWorkOrderBody(body: Record<string, unknown>): WorkOrderInput & { title: string; unitId: string } {
  return validate(body, workOrderFields(false)) as unknown as WorkOrderInput & { title: string; unitId: string };
}

export function updateWorkOrderBody(body: Record<string, unknown>): WorkOrderInput {
  return validate(body, workOrderFields(true));
}

/** A path id: 400 naming the parameter unless it is a UUID; lower-cased like the service's pipe. */
export function pathId(name: string, value: string): string {
  if (!UUID.test(value)) throw new HttpError(400, `${name} must be a UUID`);
  return value.toLowerCase();
}
