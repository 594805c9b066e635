import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { csvCellOf, csvValueOf } from '@app/common';
import { RESOURCES } from '../resources.js';
import {
  collectionOf,
  csvColumnsOf,
  importColumnsOf,
  resourceCsvsOf,
  type CsvOpenApiDocument,
} from './resource-csv-columns.js';

// The columns derived from the committed document (openapi.json, kept equal to the served one by
// `npm run check:openapi`) and the registration list: what CONTRACT "Imports and exports" names, and the rules a
// generated resource gets with no code (a body field the response lacks is derived or refused at start-up).

const document = JSON.parse(
  readFileSync(new URL('../../../../openapi.json', import.meta.url), 'utf8'),
) as CsvOpenApiDocument;
const csvs = resourceCsvsOf(document, RESOURCES);
const csvOf = (resource: string) => {
  const csv = csvs.get(resource);
  if (!csv) throw new Error(`no CSV for ${resource}`);
  return csv;
};

describe('resource CSV columns', () => {
  it('covers every registered resource a client calls, in registration order', () => {
    expect([...csvs.keys()]).toEqual(['contractors', 'units', 'tenants', 'work-orders', 'landlords']);
  });

  it('exports the response fields, then the POST body fields the response lacks', () => {
    expect(csvOf('tenants').exportColumns.map(({ name, kind }) => `${name}:${kind}`)).toEqual([
      'id:text',
      'teamId:text',
      'externalRef:text',
      'firstName:text',
      'lastName:text',
      'email:text',
      'phoneNumber:text',
      'notes:text',
      'createdAt:text',
      'updatedAt:text',
      'tenantUnits:json',
      'unitIds:list',
    ]);
    const workOrder = csvOf('work-orders').exportColumns.map(({ name }) => name);
    expect(workOrder.slice(-3)).toEqual(['unitId', 'tenantId', 'contractorId']);
    const contractor = Object.fromEntries(csvOf('contractors').exportColumns.map(({ name, kind }) => [name, kind]));
    expect(contractor).toMatchObject({
      trades: 'list',
      coveragePostcodes: 'list',
      certifications: 'json',
      insurance: 'json',
      rating: 'number',
    });
  });

  it('reads a linked id from the response generically, and a tenant’s units by its registration hook', () => {
    const unitId = csvOf('work-orders').exportColumns.find(({ name }) => name === 'unitId');
    expect(unitId?.valueOf({ unit: { id: 'u-1', fullAddress: 'x' } })).toBe('u-1');
    expect(unitId?.valueOf({ unit: null })).toBeNull();
    const unitIds = csvOf('tenants').exportColumns.find(({ name }) => name === 'unitIds');
    expect(
      unitIds?.valueOf({
        tenantUnits: [
          { id: 'l-1', unit: { id: 'u-1' } },
          { id: 'l-2', unit: { id: 'u-2' } },
        ],
      }),
    ).toEqual(['u-1', 'u-2']);
  });

  it('gives the import the body fields, their external-id twins and the work order’s status', () => {
    const tenant = csvOf('tenants').importColumns;
    expect(tenant.columns.get('unitIds')).toBe('list');
    expect(tenant.columns.get('unitExternalRefs')).toBe('list');
    const workOrder = csvOf('work-orders').importColumns;
    for (const name of ['unitExternalRef', 'tenantExternalRef', 'contractorExternalRef', 'status', 'priority']) {
      expect({ name, taken: workOrder.columns.has(name) }).toEqual({ name, taken: true });
    }
    // `priority` is a string enum (`"0"`…`"3"`): text.
    expect(workOrder.columns.get('priority')).toBe('text');
  });

  it('names every output-only field as ignored, and nothing the import takes', () => {
    expect([...csvOf('units').importColumns.ignored]).toEqual([
      'id',
      'teamId',
      'fullAddress',
      'createdAt',
      'updatedAt',
      'tenantUnits',
    ]);
    expect([...csvOf('tenants').importColumns.ignored]).toEqual([
      'id',
      'teamId',
      'createdAt',
      'updatedAt',
      'tenantUnits',
    ]);
    expect([...csvOf('work-orders').importColumns.ignored]).toEqual(
      expect.arrayContaining(['id', 'code', 'resolvedAt', 'unit', 'tenant', 'contractor']),
    );
    expect(csvOf('work-orders').importColumns.ignored.has('status')).toBe(false);
    // A contractor's fullAddress is a body field: imported, not ignored.
    expect(csvOf('contractors').importColumns.ignored.has('fullAddress')).toBe(false);
    for (const { exportColumns, importColumns } of csvs.values()) {
      for (const { name } of exportColumns) {
        expect({ name, known: importColumns.columns.has(name) || importColumns.ignored.has(name) }).toEqual({
          name,
          known: true,
        });
      }
    }
  });

  it('exports the example records so that their importable cells read back as their bodies', () => {
    for (const entry of RESOURCES) {
      if (!entry.example) continue;
      const resource = csvOf(collectionOf(entry) ?? '');
      const body = entry.example.record.body as Record<string, unknown>;
      // The record as the response shows it, for what the body cannot say by itself: links as objects.
      const record: Record<string, unknown> = { ...body };
      for (const [field, value] of Object.entries(body)) {
        if (field.endsWith('Ids') && Array.isArray(value))
          record.tenantUnits = value.map((id: unknown) => ({ unit: { id } }));
        else if (field.endsWith('Id')) record[field.slice(0, -2)] = value === null ? null : { id: value };
      }
      for (const { name, kind, valueOf } of resource.exportColumns) {
        if (!(name in body)) continue;
        const cell = csvCellOf(valueOf(record), kind);
        const kindOnImport = resource.importColumns.columns.get(name) ?? kind;
        expect({ resource: resource.resource, name, value: csvValueOf(cell, kindOnImport) }).toEqual({
          resource: resource.resource,
          name,
          // An empty list is an empty cell, which an import reads as an omitted field.
          value:
            Array.isArray(body[name]) && (body[name] as unknown[]).length === 0 ? undefined : (body[name] ?? undefined),
        });
      }
    }
  });

  it('refuses a body field it cannot fill and an importOnly field the response lacks, naming them', () => {
    expect(() => csvColumnsOf(document, '/v1/tenants')).toThrow(
      "/v1/tenants: the POST body's unitIds is not in the response; give the resource's entry a csv.derived.unitIds",
    );
    expect(() => importColumnsOf(document, '/v1/units', { importOnly: ['status'] })).toThrow(
      '/v1/units: csv.importOnly names status, which the response lacks',
    );
  });
});
