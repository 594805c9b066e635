import createClient, { type Client, type Middleware } from 'openapi-fetch';
import {
  DEFAULT_RETRY,
  realSleep,
  retryingFetch,
  type Fetch,
  type RetryOptions,
  type Sleep,
} from './retrying-fetch.js';
import type { components, paths } from './schema.d.ts';

export type { components, operations, paths } from './schema.d.ts';
export { DEFAULT_RETRY, type Fetch, type RetryOptions, type Sleep } from './retrying-fetch.js';

/** A named schema of the document, e.g. `Schema<'WorkOrderResponse'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export interface PortfolioClientOptions {
  /** Where the API is served: `https://api.example.com` (a trailing `/v1` is accepted too). */
  baseUrl: string;
  /** A key made with the dashboard or `npm run cli -- keys create`; sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Retry limits; see {@link RetryOptions} for the defaults. */
  retry?: Partial<RetryOptions>;
  /** The fetch to send requests with (default `globalThis.fetch`): a proxy agent, a test double. */
  fetch?: Fetch;
  /** How the client waits between attempts (default a timer); tests pass one that records the waits. */
  sleep?: Sleep;
  /** Makes the `Idempotency-Key` of a write that has none (default `crypto.randomUUID()`). */
  idempotencyKey?: () => string;
}

/** A path whose GET answers `{ data: [...], pagination: { pageCount, ... } }`: the paged lists. */
export type ListPath = {
  [P in keyof paths]: ListBody<P> extends { data: unknown[]; pagination: { pageCount: number } } ? P : never;
}[keyof paths];

type ListBody<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer Body } } } };
}
  ? Body
  : never;

/** A record of the list at `P`, e.g. `ListItem<'/v1/work-orders'>` is a work order. */
export type ListItem<P extends ListPath> = ListBody<P> extends { data: Array<infer Item> } ? Item : never;

/** The filters of the list at `P`, without `page` (the iterator walks the pages). */
export type ListQuery<P extends ListPath> = Omit<
  paths[P] extends { get: { parameters: { query?: infer Query } } } ? NonNullable<Query> : never,
  'page'
>;

/**
 * The media type the typed calls read: the lists also document `text/csv` (their exports), which `exportCsv` reads;
 * every other answer the client types is JSON.
 */
type Json = 'application/json';

export interface PortfolioClient extends Client<paths, Json> {
  /**
   * Every record of a list, page after page (`pagination.pageCount` says when to stop). Pass `pageSize` (up to 50)
   * to make fewer requests. A page that fails throws a {@link PortfolioApiError}.
   */
  paginate<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /**
   * The events feed from a cursor (`after`, an event id; omitted: the oldest kept), in commit order, until it has
   * nothing more (`hasMore: false`). Keep the last event's id and pass it as `after` next time to read on: every
   * event of the team arrives exactly once (docs/events.md).
   */
  events(options?: EventFeedOptions): AsyncGenerator<FeedEvent, void, undefined>;
  /**
   * Uploads a photo or document to a work order (`multipart/form-data`, one part `file`) and returns the stored
   * attachment. `file` is a `Blob`/`File` (in Node, `await fs.openAsBlob(path)` reads a file lazily, as a stream)
   * or bytes. Refusals (415 type, 413 size, 409 full, 404 work order) throw a {@link PortfolioApiError}.
   */
  uploadAttachment(workOrderId: string, file: UploadFile, options?: UploadOptions): Promise<Attachment>;
  /**
   * Every record of a list as CSV text (`Accept: text/csv`, docs/exports.md): a header row, then one row per
   * matching record, with the list's filters and `sort` (no `page`/`pageSize`: an export holds every record). The
   * whole text is returned; for an export too large to hold, fetch the list yourself with `Accept: text/csv` and
   * read its body as a stream. A refusal (400 for a bad filter) throws a {@link PortfolioApiError}.
   */
  exportCsv<P extends ListPath>(path: P, query?: ExportQuery<P>): Promise<string>;
  /**
   * Starts an import (`POST /v1/imports`, docs/imports.md) and returns it as queued (the 202's `data`). `body` is
   * CSV (a string, `Blob` or bytes, sent as `text/csv`) or an array of objects (sent as NDJSON, one JSON object a
   * line, `application/x-ndjson`); `options.format` overrides the guess (an NDJSON string or file). The call
   * carries an `Idempotency-Key` like every write. A refusal (400 unknown column, 413 too large, 415) throws a
   * {@link PortfolioApiError}; rows that fail are not refusals: they are counted and listed by
   * {@link PortfolioClient.importErrors}. Follow it with {@link PortfolioClient.waitForImport}.
   */
  importRecords(resource: ImportResource, body: ImportBody, options?: ImportOptions): Promise<Import>;
  /**
   * Reads the import (`GET /v1/imports/{id}`) every `intervalMs` until it is `succeeded`, `failed` or `cancelled`,
   * and returns it. Waits go through the client's `sleep`. Past `timeoutMs` it throws an
   * {@link ImportTimeoutError} holding the last reading; an aborted `signal` throws its reason; a refusal (404)
   * throws a {@link PortfolioApiError}. `succeeded` may still carry failed rows: see `failedCount`.
   */
  waitForImport(importId: string, options?: WaitForImportOptions): Promise<Import>;
  /** Every failed row of an import (`GET /v1/imports/{id}/errors`), page after page, in row order. */
  importErrors(importId: string, options?: { pageSize?: number }): AsyncGenerator<ImportRowError, void, undefined>;
  /**
   * Resets the sandbox of the client's test key (`POST /v1/sandbox/reset`): empties its records
   * (with their notes, attachments and history) and imports, keeps its events feed, webhook endpoints and keys, and
   * with `sampleData: true` fills it with the sample portfolio before answering. Returns the reset (its `records`
   * count what was loaded). A live key's call is refused: the 403 throws a {@link PortfolioApiError}.
   */
  resetSandbox(options?: ResetSandboxOptions): Promise<SandboxReset>;
}

/** What {@link PortfolioClient.resetSandbox} answers: the sandbox's `teamId`, `sampleData`, `resetAt`, `records`. */
export type SandboxReset = components['schemas']['SandboxResetResponse'];

export interface ResetSandboxOptions {
  /** After emptying the sandbox, fill it with the sample portfolio (the same on every reset). Default false. */
  sampleData?: boolean;
}

/** An import as the API answers it. */
export type Import = components['schemas']['ImportResponse'];

/** What an import creates or updates: `units`, `tenants`, `landlords`, `contractors`, `work-orders`. */
export type ImportResource = components['schemas']['ImportResource'];

/** A row of an import that failed: `{ row, externalRef, error }`, rows numbered from 1 for the first data row. */
export type ImportRowError = components['schemas']['ImportErrorResponse'];

/**
 * The rows of an import: CSV (text, a `Blob`/`File` such as `await fs.openAsBlob(path)`, or bytes), or records as
 * objects, one per row (sent as NDJSON).
 */
export type ImportBody = string | Blob | ArrayBuffer | Uint8Array<ArrayBuffer> | readonly object[];

export interface ImportOptions {
  /** Validate every row and write nothing: the counts and errors say what the import would do. */
  dryRun?: boolean;
  /** How `body` is sent; default `ndjson` for an array of objects, `csv` for anything else. */
  format?: 'csv' | 'ndjson';
}

export interface WaitForImportOptions {
  /** Between two readings, in milliseconds. Default 500. */
  intervalMs?: number;
  /** How long to wait in all, in milliseconds: the time waited or the time passed, whichever is more. Default 10 minutes. */
  timeoutMs?: number;
  /** Stops waiting (and the reading under way) when aborted; the wait rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The statuses an import does not leave. */
const FINAL_IMPORT_STATUSES: ReadonlySet<Import['status']> = new Set(['succeeded', 'failed', 'cancelled']);

/** {@link PortfolioClient.waitForImport} gave up: the import had not reached a final status in time. */
export class ImportTimeoutError extends Error {
  constructor(
    /** The last reading of the import (its `status` is `queued` or `running`). */
    readonly lastImport: Import,
    readonly timeoutMs: number,
  ) {
    super(
      `Import ${lastImport.id} did not finish within ${timeoutMs} ms: it is still ${lastImport.status} ` +
        `(${lastImport.processedRows} of ${lastImport.totalRows} rows processed)`,
    );
    this.name = 'ImportTimeoutError';
  }
}

/** The filters of the list at `P` an export takes: its query without `page` and `pageSize`. */
export type ExportQuery<P extends ListPath> = Omit<ListQuery<P>, 'pageSize'>;

/** An attachment as the API answers it. */
export type Attachment = components['schemas']['AttachmentResponse'];

/** What {@link PortfolioClient.uploadAttachment} sends: a `Blob`/`File`, or the bytes themselves. */
export type UploadFile = Blob | ArrayBuffer | Uint8Array<ArrayBuffer>;

export interface UploadOptions {
  /** The name shown for the file (default: a `File`'s own name, else `upload`); path parts are stripped. */
  fileName?: string;
  /** A note of the same work order the file belongs to. */
  noteId?: string;
  /** At most 500 characters. */
  description?: string;
}

/** One event of the feed (`GET /v1/events`). */
export type FeedEvent = components['schemas']['EventResponse'];

export interface EventFeedOptions {
  after?: string;
  types?: Array<FeedEvent['type']>;
  /** Events per request (1–100, default 50). */
  limit?: number;
}

/** A non-2xx answer where the caller asked for records rather than a `{ data, error }` result. */
export class PortfolioApiError extends Error {
  constructor(
    readonly status: number,
    /** The answer's `error` text (every non-2xx body is `{ "error": "…" }`). */
    readonly error: string,
  ) {
    super(`${status}: ${error}`);
    this.name = 'PortfolioApiError';
  }
}

/** Methods the server makes safe to retry with an `Idempotency-Key` (CONTRACT "Safe retries"). */
const KEYED_METHODS = new Set(['POST', 'PUT', 'DELETE']);

/** The `If-Match` header for a conditional PUT or DELETE: `params: { path, header: ifMatch(etag) }`. */
export function ifMatch(etag: string): { 'If-Match': string } {
  return { 'If-Match': etag };
}

/**
 * The `ETag` of a GET-one, POST or PUT answer (`const { data, response } = await client.GET(…)`), to send back
 * with {@link ifMatch}; undefined when the answer has none (lists, errors).
 */
export function etagOf(result: Response | { response: Response }): string | undefined {
  const response = result instanceof Response ? result : result.response;
  return response.headers.get('ETag') ?? undefined;
}

/**
 * Whether an answer came from a sandbox: `true` when it carries `X-Test-Mode: true`, which the API sends on every
 * answer to a test key (`ppk_test_…`), refusals included.
 */
export function isTestMode(result: Response | { response: Response }): boolean {
  const response = result instanceof Response ? result : result.response;
  return response.headers.get('X-Test-Mode') === 'true';
}

/**
 * A write gets one `Idempotency-Key` per call (unless the caller sent one), made before the first attempt, so every
 * retry of the call carries the same key and the server does the work at most once.
 */
function idempotencyMiddleware(newKey: () => string): Middleware {
  return {
    onRequest({ request }) {
      if (KEYED_METHODS.has(request.method) && !request.headers.has('Idempotency-Key')) {
        request.headers.set('Idempotency-Key', newKey());
      }
      return request;
    },
  };
}

function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'error' in error && typeof error.error === 'string') {
    return error.error;
  }
  return typeof error === 'string' ? error : JSON.stringify(error);
}

/** The typed client of the Property Portfolio API: openapi-fetch with the key, retries and page walking. */
export function createPortfolioClient(options: PortfolioClientOptions): PortfolioClient {
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? realSleep;
  const fetch = retryingFetch(options.fetch ?? ((request) => globalThis.fetch(request)), retry, sleep);
  const client = createClient<paths, Json>({
    // The document's paths carry the `/v1` prefix, so the client's base is the server's root.
    baseUrl: options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch,
    // Enumerated filters take a comma-separated list (`status=reported,in_progress`), not repeated parameters.
    querySerializer: { array: { style: 'form', explode: false } },
  });
  client.use(idempotencyMiddleware(options.idempotencyKey ?? (() => globalThis.crypto.randomUUID())));

  /**
   * openapi-fetch's GET is typed per literal path; for a path generic over every list, TypeScript cannot pick the
   * overload, so the call goes through this narrower view of the same function. `ListPath` guarantees the shape.
   */
  const getPage = client.GET as unknown as (
    path: string,
    init: { params: { query: Record<string, unknown> } },
  ) => Promise<{ data?: { data: unknown[]; pagination: { pageCount: number } }; error?: unknown; response: Response }>;

  /** Every item of every page `readPage` answers, from page 1 until `pagination.pageCount`. */
  async function* walkPages<Item>(
    readPage: (page: number) => Promise<{
      data?: { data: Item[]; pagination: { pageCount: number } };
      error?: unknown;
      response: Response;
    }>,
  ): AsyncGenerator<Item> {
    for (let page = 1; ; page += 1) {
      const { data, error, response } = await readPage(page);
      if (!data) throw new PortfolioApiError(response.status, errorText(error));
      yield* data.data;
      if (page >= data.pagination.pageCount) return;
    }
  }

  function paginate<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<ListItem<P>> {
    return walkPages((page) => getPage(path, { params: { query: { ...query, page } } })) as AsyncGenerator<ListItem<P>>;
  }

  async function* events(options: EventFeedOptions = {}): AsyncGenerator<FeedEvent> {
    let after = options.after;
    for (;;) {
      const { data, error, response } = await client.GET('/v1/events', {
        params: { query: { after, types: options.types, limit: options.limit } },
      });
      if (!data) throw new PortfolioApiError(response.status, errorText(error));
      yield* data.data;
      after = data.pagination.next ?? undefined;
      if (!data.pagination.hasMore) return;
    }
  }

  async function uploadAttachment(workOrderId: string, file: UploadFile, options: UploadOptions = {}) {
    const blob = file instanceof Blob ? file : new Blob([file]);
    const fileName = options.fileName ?? (typeof File !== 'undefined' && file instanceof File ? file.name : 'upload');
    const { data, error, response } = await client.POST('/v1/work-orders/{workOrderId}/attachments', {
      params: { path: { workOrderId } },
      // The document types the part as a binary string; the request carries the bytes as a multipart part.
      body: { file: fileName, noteId: options.noteId, description: options.description },
      bodySerializer: () => {
        const form = new FormData();
        form.append('file', blob, fileName);
        if (options.noteId !== undefined) form.append('noteId', options.noteId);
        if (options.description !== undefined) form.append('description', options.description);
        return form;
      },
    });
    if (!data) throw new PortfolioApiError(response.status, errorText(error));
    return data.data;
  }

  const getText = client.GET as unknown as (
    path: string,
    init: { params: { query: Record<string, unknown> }; headers: Record<string, string>; parseAs: 'text' },
  ) => Promise<{ data?: string; error?: unknown; response: Response }>;

  async function exportCsv<P extends ListPath>(path: P, query?: ExportQuery<P>): Promise<string> {
    const { data, error, response } = await getText(path, {
      params: { query: { ...query } },
      headers: { Accept: 'text/csv' },
      parseAs: 'text',
    });
    if (data === undefined) throw new PortfolioApiError(response.status, errorText(error));
    return data;
  }

  async function importRecords(resource: ImportResource, body: ImportBody, options: ImportOptions = {}) {
    const isRecords = Array.isArray(body);
    const format = options.format ?? (isRecords ? 'ndjson' : 'csv');
    if (isRecords && format === 'csv') throw new TypeError('importRecords: an array of records is sent as NDJSON');
    // NDJSON: one JSON object a line; the server reads a last line with or without its newline.
    const payload: string | Blob = isRecords
      ? (body as readonly object[]).map((record) => `${JSON.stringify(record)}\n`).join('')
      : typeof body === 'string' || body instanceof Blob
        ? body
        : new Blob([body as ArrayBuffer | Uint8Array<ArrayBuffer>]);
    const { data, error, response } = await client.POST('/v1/imports', {
      params: { query: options.dryRun ? { resource, dryRun: true } : { resource } },
      // The document types the body as text; a Blob is sent as it is (the request streams it).
      body: '',
      bodySerializer: () => payload,
      headers: { 'Content-Type': format === 'csv' ? 'text/csv' : 'application/x-ndjson' },
    });
    if (!data) throw new PortfolioApiError(response.status, errorText(error));
    return data.data;
  }

  async function readImport(importId: string, signal: AbortSignal | undefined): Promise<Import> {
    const { data, error, response } = await client.GET('/v1/imports/{importId}', {
      params: { path: { importId } },
      signal,
    });
    if (!data) throw new PortfolioApiError(response.status, errorText(error));
    return data.data;
  }

  /** `sleep(ms)`, or the signal's reason as soon as it is aborted. */
  function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (!signal) return sleep(ms);
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      sleep(ms)
        .finally(() => signal.removeEventListener('abort', onAbort))
        .then(resolve, reject);
    });
  }

  async function waitForImport(importId: string, options: WaitForImportOptions = {}): Promise<Import> {
    const intervalMs = options.intervalMs ?? 500;
    const timeoutMs = options.timeoutMs ?? 10 * 60_000;
    const { signal } = options;
    const started = performance.now();
    // The time spent is the waits' sum or the clock's, whichever is more: a test's sleep that returns at once
    // still reaches the timeout, and slow readings count in real use.
    let waited = 0;
    for (;;) {
      signal?.throwIfAborted();
      const current = await readImport(importId, signal);
      if (FINAL_IMPORT_STATUSES.has(current.status)) return current;
      const spent = Math.max(waited, performance.now() - started);
      if (spent >= timeoutMs) throw new ImportTimeoutError(current, timeoutMs);
      const wait = Math.min(intervalMs, timeoutMs - spent);
      await pause(wait, signal);
      waited += wait;
    }
  }

  function importErrors(importId: string, options: { pageSize?: number } = {}): AsyncGenerator<ImportRowError> {
    return walkPages((page) =>
      client.GET('/v1/imports/{importId}/errors', {
        params: { path: { importId }, query: { page, pageSize: options.pageSize } },
      }),
    );
  }

  async function resetSandbox(options: ResetSandboxOptions = {}): Promise<SandboxReset> {
    const { data, error, response } = await client.POST('/v1/sandbox/reset', {
      body: options.sampleData === undefined ? {} : { sampleData: options.sampleData },
    });
    if (!data) throw new PortfolioApiError(response.status, errorText(error));
    return data.data;
  }

  return Object.assign(client, {
    paginate,
    events,
    uploadAttachment,
    exportCsv,
    importRecords,
    waitForImport,
    importErrors,
    resetSandbox,
  });
}

export { verifyWebhook, WebhookSignatureError, type VerifyOptions } from './webhook-signature.js';
