import { Controller, Get, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  ApiBodyExamples,
  ApiErrors,
  ApiErrorsWith,
  ApiGetOne,
  ApiPageResponse,
  ApiWrite,
  Authenticated,
  IdParam,
  NoBody,
  PagingQuery,
  RATE_LIMIT_HEADERS,
  TeamId,
  type Page,
} from '@app/common';
import { CreateImportQuery, ImportTemplateQuery } from './dto/create-import.query.js';
import { ImportErrorResponse, ImportResponse } from './dto/import.response.js';
import { ResourceCsvs } from '../exports/index.js';
import { IMPORT_EXAMPLE_CSV, IMPORT_EXAMPLE_NDJSON } from './import-example.js';
import { IMPORT_TOO_LARGE, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, type ImportFormat } from './import-receiver.js';
import { ImportsService } from './imports.service.js';
import {
  IMPORT_TYPES,
  NOT_AN_IMPORT_TYPE,
  ReceivedImport,
  ReceiveImportGuard,
  type ReceivedBody,
} from './receive-import.guard.js';

const IMPORT_NOT_FOUND = { 404: 'Import not found' };

/** The body's format from its Content-Type (`ReceiveImportGuard` refused any other with 415). */
function formatOf(request: Request): ImportFormat {
  return request.is('application/x-ndjson') ? 'ndjson' : 'csv';
}

@ApiTags('Imports')
@Authenticated()
@Controller('imports')
export class ImportsController {
  constructor(
    private readonly imports: ImportsService,
    private readonly csvs: ResourceCsvs,
  ) {}

  @Post()
  @UseGuards(ReceiveImportGuard)
  @HttpCode(202)
  @ApiOperation({
    summary: 'Import records from CSV or NDJSON',
    description:
      '`text/csv` (a header row of field names) or `application/x-ndjson` (one JSON object a line), at most ' +
      `${MAX_IMPORT_ROWS} rows and 20 MiB (413). Each row is validated as the resource's POST validates its body; ` +
      'a row whose `externalRef` already names a record of the team updates it as a PUT would. References by ' +
      'external id: `unitExternalRef`, `tenantExternalRef`, `contractorExternalRef` (work orders) and ' +
      '`unitExternalRefs` (tenants). In CSV an empty cell is an omitted field, list fields are `;`-separated ' +
      "(an item's own `;` or `\\` written `\\;` or `\\\\`) and nested ones JSON. An unknown CSV column is 400 " +
      '(output-only columns are ignored); an NDJSON property the POST does not take (an output-only one such as ' +
      '`id` too) fails its row. Text is UTF-8 unless the ' +
      'Content-Type names a charset (`text/csv; charset=windows-1252`): bytes that are not text in it are 400 ' +
      '(naming the first), a charset no decoder knows 415. Answers 202 at once: the import ' +
      'runs in the background (`GET /v1/imports/{id}`), ' +
      'failing rows are skipped and listed by `GET /v1/imports/{id}/errors`. Counted as one write. See docs/imports.md.',
  })
  @ApiConsumes(...IMPORT_TYPES)
  @ApiBody({ schema: { type: 'string' }, description: 'The rows' })
  @ApiBodyExamples({ 'text/csv': IMPORT_EXAMPLE_CSV, 'application/x-ndjson': IMPORT_EXAMPLE_NDJSON })
  @ApiWrite(ImportResponse, 202, 'Accepted: queued', 400, 409, 413, 415, {
    descriptions: {
      409: 'A request with the same Idempotency-Key is still in progress',
      413:
        `The body is over 20 MiB (${MAX_IMPORT_BYTES.toLocaleString('en-GB')} bytes) or holds more than ` +
        `${MAX_IMPORT_ROWS.toLocaleString('en-GB')} rows; nothing was imported. (The 1 MiB limit of JSON bodies ` +
        'does not apply here.)',
      415:
        'The Content-Type is not `text/csv` or `application/x-ndjson`, or it names a charset no decoder knows; ' +
        'nothing was read',
    },
    examples: { 413: IMPORT_TOO_LARGE, 415: NOT_AN_IMPORT_TYPE },
  })
  async create(
    @TeamId() teamId: string,
    @Query() query: CreateImportQuery,
    @Req() request: Request,
    @ReceivedImport() received: ReceivedBody | undefined,
  ): Promise<{ data: ImportResponse }> {
    // Received whole by ReceiveImportGuard (a body of the import's types within the limit): its rows are read from
    // the file, so the transaction lasts as long as writing them, whatever the client's pace.
    if (!received) throw new Error('the import body was not received before the route');
    const rows = received.rows.take();
    try {
      return {
        data: await this.imports.create(
          teamId,
          query.resource,
          query.dryRun,
          formatOf(request),
          rows,
          received.encoding,
        ),
      };
    } finally {
      // Its file descriptor, should the import be refused before reading it to the end.
      rows.destroy();
    }
  }

  @Get()
  @ApiOperation({ summary: 'List imports', description: 'Newest first. `page` ≥ 1, `pageSize` 1–50 (default 20).' })
  @ApiPageResponse(ImportResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: PagingQuery): Promise<Page<ImportResponse>> {
    return this.imports.list(teamId, query.page, query.pageSize);
  }

  // Before `:importId`, which would take `template` as an id.
  @Get('template')
  @ApiOperation({
    summary: 'The CSV template of an import',
    description: "A CSV file holding the header row of the resource's import columns.",
  })
  @ApiResponse({
    status: 200,
    description: 'The header row',
    headers: RATE_LIMIT_HEADERS,
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiErrors(400)
  template(@Query() query: ImportTemplateQuery, @Res() response: Response): void {
    const header = [...(this.csvs.importColumnsOf(query.resource)?.columns.keys() ?? [])].join(',');
    response
      .status(200)
      .type('text/csv')
      .setHeader('Content-Disposition', `attachment; filename="${query.resource}-import.csv"`);
    response.send(`${header}\n`);
  }

  @Get(':importId')
  @ApiOperation({
    summary: 'Get an import',
    description:
      'With a strong `ETag`: a client polling a running import sends it back in `If-None-Match` and gets `304` ' +
      'with no body until the import moves on.',
  })
  @ApiParam({ name: 'importId', format: 'uuid' })
  @ApiGetOne(ImportResponse, { writable: false })
  async get(@TeamId() teamId: string, @IdParam('importId') id: string): Promise<{ data: ImportResponse }> {
    return { data: await this.imports.get(teamId, id) };
  }

  @Get(':importId/errors')
  @ApiOperation({
    summary: 'List the rows of an import that failed',
    description:
      'In row order (rows numbered from 1 for the first data row); `externalRef` null when the row has none.',
  })
  @ApiParam({ name: 'importId', format: 'uuid' })
  @ApiPageResponse(ImportErrorResponse, 'One page of failed rows, in row order')
  @ApiErrorsWith(IMPORT_NOT_FOUND, 400, 404)
  errors(
    @TeamId() teamId: string,
    @IdParam('importId') id: string,
    @Query() query: PagingQuery,
  ): Promise<Page<ImportErrorResponse>> {
    return this.imports.errors(teamId, id, query.page, query.pageSize);
  }

  @Post(':importId/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel an import',
    description: 'Rows already written stay. A finished import (succeeded, failed or cancelled) is 409.',
  })
  @ApiParam({ name: 'importId', format: 'uuid' })
  @ApiWrite(ImportResponse, 200, 'Cancelled', 400, 404, 409)
  async cancel(
    @TeamId() teamId: string,
    @IdParam('importId') id: string,
    @NoBody() _body: void,
  ): Promise<{ data: ImportResponse }> {
    return { data: await this.imports.cancel(teamId, id) };
  }
}
