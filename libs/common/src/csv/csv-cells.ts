/**
 * How a record's fields are written in CSV cells and read back (CONTRACT "Imports and exports"): one rule for
 * exports and imports, so an export imports back unchanged. A field's kind comes from its JSON schema in the
 * OpenAPI document (the schema the API validates the field's JSON with), so a resource added later gets it with
 * no code of its own.
 *
 * - `text`: the string as it stands;
 * - `number` / `boolean`: their JSON text (`12`, `true`);
 * - `list`: a list of strings (`trades`, `unitIds`), `;`-separated; an item's own `;` or `\` is escaped with a
 *   backslash (`\;`, `\\`), so an item holding one comes back whole (any other backslash is read as it stands);
 * - `json`: anything nested (`certifications`, `insurance`), as JSON.
 *
 * An empty cell is an omitted field on import, and what `null` (or a missing value) exports as.
 */
export type CsvCellKind = 'text' | 'number' | 'boolean' | 'list' | 'json';

/** The parts of a JSON schema (OpenAPI 3.0) a field's kind depends on. */
export interface CsvFieldSchema {
  type?: string;
  items?: CsvFieldSchema;
  $ref?: string;
  allOf?: CsvFieldSchema[];
  oneOf?: CsvFieldSchema[];
  anyOf?: CsvFieldSchema[];
  enum?: unknown[];
  properties?: Record<string, unknown>;
}

/** The separator of a list cell. */
export const CSV_LIST_SEPARATOR = ';';
/** Escapes a list item's own separator (and itself) in its cell. */
const CSV_LIST_ESCAPE = '\\';

/** The items of a list cell: split at each `;` not escaped, the escapes read; each trimmed, empty ones dropped. */
function listItemsOf(cell: string): string[] {
  const items: string[] = [];
  let item = '';
  for (let at = 0; at < cell.length; at += 1) {
    const char = cell[at];
    const next = cell[at + 1];
    if (char === CSV_LIST_ESCAPE && (next === CSV_LIST_SEPARATOR || next === CSV_LIST_ESCAPE)) {
      item += next;
      at += 1;
    } else if (char === CSV_LIST_SEPARATOR) {
      items.push(item);
      item = '';
    } else {
      item += char;
    }
  }
  items.push(item);
  return items.map((each) => each.trim()).filter((each) => each !== '');
}

/** A list item as it stands in its cell: its own `;` and `\` escaped. */
const listItemCell = (item: unknown): string => String(item).replace(/[;\\]/g, (char) => `${CSV_LIST_ESCAPE}${char}`);

const isStringSchema = (schema: CsvFieldSchema | undefined): boolean =>
  schema !== undefined &&
  schema.$ref === undefined &&
  (schema.type === 'string' || schema.type === undefined) &&
  schema.properties === undefined &&
  schema.items === undefined &&
  !schema.allOf &&
  !schema.oneOf &&
  !schema.anyOf;

/** The kind of a field from its schema: a `$ref` (an enum's named schema included) is looked up by `resolve`. */
export function csvCellKindOf(
  schema: CsvFieldSchema,
  resolve: (ref: string) => CsvFieldSchema | undefined = () => undefined,
): CsvCellKind {
  const composed = schema.allOf ?? schema.oneOf ?? schema.anyOf;
  if (composed?.length === 1) return csvCellKindOf(composed[0], resolve);
  if (schema.$ref) {
    const target = resolve(schema.$ref);
    return target ? csvCellKindOf(target, resolve) : 'json';
  }
  if (schema.type === 'array') {
    const items = schema.items?.$ref ? resolve(schema.items.$ref) : schema.items;
    return isStringSchema(items) ? 'list' : 'json';
  }
  if (schema.type === 'object' || schema.properties || composed) return 'json';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'boolean') return 'boolean';
  return 'text';
}

/** A value as its cell (exports). */
export function csvCellOf(value: unknown, kind: CsvCellKind): string {
  if (value === null || value === undefined) return '';
  if (kind === 'list' && Array.isArray(value)) return value.map(listItemCell).join(CSV_LIST_SEPARATOR);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean')
    return kind === 'json' ? JSON.stringify(value) : `${value}`;
  return JSON.stringify(value);
}

/**
 * A cell as the field's JSON value (imports); `undefined` for an empty cell (the field is omitted). A cell that is
 * not what its kind needs is passed on as the text it is, so the resource's own validation names the field and its
 * rule (`yearBuilt must be an integer`), as it would for the same JSON; only unparseable JSON is refused here.
 */
export function csvValueOf(cell: string, kind: CsvCellKind): unknown {
  if (cell === '') return undefined;
  switch (kind) {
    case 'list':
      return listItemsOf(cell);
    case 'number': {
      const number = Number(cell.trim());
      return cell.trim() !== '' && Number.isFinite(number) ? number : cell;
    }
    case 'boolean':
      return cell.trim() === 'true' ? true : cell.trim() === 'false' ? false : cell;
    case 'json':
      try {
        return JSON.parse(cell) as unknown;
      } catch {
        throw new CsvCellError('must be JSON');
      }
    default:
      return cell;
  }
}

/** A cell that cannot be read at all (the column's name is added by the caller). */
export class CsvCellError extends Error {}
