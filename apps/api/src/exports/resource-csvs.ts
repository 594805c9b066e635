import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import {
  resourceCsvsOf,
  type CsvOpenApiDocument,
  type CsvResourceEntry,
  type ImportColumns,
  type ResourceCsv,
} from '../csv/index.js';

/**
 * Every registered resource's CSV columns (apps/api/src/csv/resource-csv-columns.ts), read from the document the
 * app serves once it is built (`configureApp` hands it over before the app takes requests). Injectable anywhere
 * (ExportsModule is global): exports read `exportColumns`, the import reads `importColumnsOf(resource)`.
 */
@Injectable()
export class ResourceCsvs {
  private csvs?: Map<string, ResourceCsv>;

  constructor(private readonly entries: CsvResourceEntry[]) {}

  /** Derives every resource's columns from `document`, and documents the `text/csv` answer of each list in it. */
  useDocument(document: OpenAPIObject): OpenAPIObject {
    const csvs = resourceCsvsOf(document as unknown as CsvOpenApiDocument, this.entries);
    this.csvs = csvs;
    for (const { resource, exportColumns } of csvs.values()) {
      const ok = document.paths[`/v1/${resource}`]?.get?.responses?.['200'] as
        { content?: Record<string, unknown> } | undefined;
      if (!ok?.content) continue;
      ok.content['text/csv'] = {
        schema: {
          type: 'string',
          description:
            "With `Accept: text/csv`: every matching record (all pages, this list's filters and order), a header " +
            `row then one row per record (RFC 4180). Columns: ${exportColumns.map(({ name }) => name).join(', ')}. ` +
            'See docs/exports.md.',
        },
      };
    }
    return document;
  }

  /** The resource's CSV by its name in paths (`work-orders`); undefined for a name that is not a resource's. */
  of(resource: string): ResourceCsv | undefined {
    if (!this.csvs) throw new Error('ResourceCsvs: the OpenAPI document was not handed over (configureApp)');
    return this.csvs.get(resource);
  }

  /** The names and kinds an import of `resource` takes, and the output-only names it ignores. */
  importColumnsOf(resource: string): ImportColumns | undefined {
    return this.of(resource)?.importColumns;
  }

  /** The registered resources' names in paths (`units`, `tenants`, …), in registration order. */
  resources(): string[] {
    if (!this.csvs) throw new Error('ResourceCsvs: the OpenAPI document was not handed over (configureApp)');
    return [...this.csvs.keys()];
  }
}
