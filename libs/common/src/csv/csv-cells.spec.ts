import { describe, expect, it } from '@jest/globals';
import { csvCellKindOf, csvCellOf, csvValueOf, CsvCellError, type CsvFieldSchema } from './csv-cells.js';

const components: Record<string, CsvFieldSchema> = {
  '#/components/schemas/Status': { type: 'string', enum: ['active', 'inactive'] },
  '#/components/schemas/Insurance': { type: 'object', properties: { provider: {} } },
};
const resolve = (ref: string) => components[ref];

describe('CSV cells', () => {
  it('derives each field’s kind from its schema', () => {
    const cases: Array<[CsvFieldSchema, string]> = [
      [{ type: 'string' }, 'text'],
      [{ type: 'string', format: 'uuid' } as CsvFieldSchema, 'text'],
      [{ $ref: '#/components/schemas/Status' }, 'text'],
      [{ allOf: [{ $ref: '#/components/schemas/Status' }] }, 'text'],
      [{ type: 'integer' }, 'number'],
      [{ type: 'number' }, 'number'],
      [{ type: 'boolean' }, 'boolean'],
      [{ type: 'array', items: { type: 'string' } }, 'list'],
      [{ type: 'array', items: { $ref: '#/components/schemas/Status' } }, 'list'],
      [{ type: 'array', items: { $ref: '#/components/schemas/Insurance' } }, 'json'],
      [{ $ref: '#/components/schemas/Insurance' }, 'json'],
      [{ type: 'object' }, 'json'],
    ];
    expect(cases.map(([schema]) => csvCellKindOf(schema, resolve))).toEqual(cases.map(([, kind]) => kind));
  });

  it('writes values as cells and reads them back unchanged', () => {
    const values: Array<[unknown, Parameters<typeof csvCellOf>[1], string]> = [
      ['Flat 2; rear', 'text', 'Flat 2; rear'],
      [1984, 'number', '1984'],
      [false, 'boolean', 'false'],
      [['Plumbing', 'Gas'], 'list', 'Plumbing;Gas'],
      [['Heating; gas', 'C:\\tools\\', 'a\\;b'], 'list', 'Heating\\; gas;C:\\\\tools\\\\;a\\\\\\;b'],
      [{ provider: 'Aviva', expiresOn: '2027-01-31' }, 'json', '{"provider":"Aviva","expiresOn":"2027-01-31"}'],
      [[{ name: 'Gas Safe' }], 'json', '[{"name":"Gas Safe"}]'],
    ];
    for (const [value, kind, cell] of values) {
      expect(csvCellOf(value, kind)).toBe(cell);
      expect(csvValueOf(cell, kind)).toEqual(value);
    }
  });

  it('exports null as an empty cell and imports an empty cell as an omitted field', () => {
    expect(csvCellOf(null, 'text')).toBe('');
    expect(csvCellOf(undefined, 'list')).toBe('');
    for (const kind of ['text', 'number', 'boolean', 'list', 'json'] as const)
      expect(csvValueOf('', kind)).toBeUndefined();
  });

  it('passes a cell its kind cannot read on as text, for the field’s own validation to name', () => {
    expect(csvValueOf('nineteen', 'number')).toBe('nineteen');
    expect(csvValueOf('yes', 'boolean')).toBe('yes');
    expect(csvValueOf(' a ; ;b ', 'list')).toEqual(['a', 'b']);
    // A backslash before anything but `;` or another backslash is the character itself (a hand-written cell).
    expect(csvValueOf('C:\\tools;x\\', 'list')).toEqual(['C:\\tools', 'x\\']);
    expect(() => csvValueOf('{"provider":', 'json')).toThrow(CsvCellError);
  });
});
