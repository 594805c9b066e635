// The floor: the benchmark's endpoints with the service's semantics and JSON on plain node:http + pg, with no
// framework. It is never shipped; it shows what the same work costs with nothing in between, and it is denied
// nothing the service does: the same key cache (same invalidation), each write in one statement with the event
// the service's outbox writes, Idempotency-Key answers stored as the service stores them, ETags on records.
// Env: DATABASE_URL (required), PORT, RATE_LIMIT_PER_MINUTE, RATE_LIMIT_WRITES_PER_MINUTE, DB_POOL_SIZE,
// FLOOR_UPLOAD_DIR (where the plain upload route writes; without it the route is not served).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { Authenticator, type Caller } from './auth.js';
import { databaseFailure, HttpError, readJsonBody, sendJson, sendText } from './http.js';
import { KeyCache } from './key-cache.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import { LEAST_WORK_UPLOAD_PATH, leastWorkUpload } from './least-work-upload.js';
import { CONTENT_PATH, plainDownload, plainUpload, UPLOAD_PATH } from './uploads.js';
import { listTenants } from './tenants.js';
import { createWorkOrderBody, pathId, tenantListQuery, updateWorkOrderBody, workOrderListQuery } from './validate.js';
import {
  createWorkOrder,
  createWorkOrderOnce,
  entityTagOf,
  getWorkOrder,
  listWorkOrders,
  updateWorkOrder,
} from './work-orders.js';

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const pool = new pg.Pool({
  connectionString: databaseUrl,
  max: env('DB_POOL_SIZE', 10),
  statement_timeout: 10_000,
  application_name: 'bench-floor',
});
const keys = new KeyCache(databaseUrl);
const auth = new Authenticator(pool, keys);
const limiter = new SlidingWindowLimiter(env('RATE_LIMIT_PER_MINUTE', 200), env('RATE_LIMIT_WRITES_PER_MINUTE', 30));
const uploadFolder = process.env.FLOOR_UPLOAD_DIR;

interface Request {
  caller: Caller;
  id?: string;
  path: string;
  search: string;
  body: Record<string, unknown>;
  idempotencyKey?: string;
}
/** A status and a body, or the exact text of a stored answer (an Idempotency-Key's). */
type Answer = [status: number, body: unknown] | { status: number; text: string; replayed: boolean };
type Handler = (request: Request) => Promise<Answer>;

interface Route {
  method: string;
  /** Matched case-insensitively with an optional trailing slash, as Express routes are. */
  path: RegExp;
  handler: Handler;
  /** Whether the answer carries a strong ETag (one record: GET one, POST, PUT), as the service's does. */
  tagged?: boolean;
}

/** The history entry's actor, as the service writes it (the floor reads no key name: null). */
const actorOf = (caller: Caller): string => JSON.stringify({ type: 'api_key', id: caller.apiKeyId, name: null });

const ID = '([^/]+)';
const routes: Route[] = [
  {
    method: 'GET',
    path: /^\/v1\/work-orders\/?$/i,
    handler: async (r) => [200, await listWorkOrders(pool, r.caller.teamId, workOrderListQuery(r.search))],
  },
  {
    method: 'POST',
    path: /^\/v1\/work-orders\/?$/i,
    tagged: true,
    handler: async (r) => {
      const input = createWorkOrderBody(r.body);
      if (r.idempotencyKey === undefined)
        return [201, await createWorkOrder(pool, r.caller.teamId, input, actorOf(r.caller))];
      const stored = await createWorkOrderOnce(
        pool,
        r.caller.teamId,
        r.idempotencyKey,
        r.path,
        r.body,
        input,
        actorOf(r.caller),
      );
      return { status: stored.status, text: stored.body, replayed: stored.replayed };
    },
  },
  {
    method: 'GET',
    path: new RegExp(`^/v1/work-orders/${ID}/?$`, 'i'),
    tagged: true,
    handler: async (r) => {
      const id = pathId('workOrderId', r.id ?? '');
      return [200, await getWorkOrder(pool, r.caller.teamId, id)];
    },
  },
  {
    method: 'PUT',
    path: new RegExp(`^/v1/work-orders/${ID}/?$`, 'i'),
    tagged: true,
    handler: async (r) => {
      const id = pathId('workOrderId', r.id ?? '');
      return [200, await updateWorkOrder(pool, r.caller.teamId, id, updateWorkOrderBody(r.body), actorOf(r.caller))];
    },
  },
  {
    method: 'GET',
    path: /^\/v1\/tenants\/?$/i,
    handler: async (r) => [200, await listTenants(pool, r.caller.teamId, tenantListQuery(r.search))],
  },
];

function decodePathPart(part: string | undefined): string | undefined {
  try {
    return part === undefined ? undefined : decodeURIComponent(part);
  } catch {
    throw new HttpError(400, `Failed to decode param '${part}'`);
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const incoming = request.headers['x-request-id'];
  response.setHeader(
    'X-Request-Id',
    typeof incoming === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(incoming) ? incoming : randomUUID(),
  );
  const url = request.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  const search = queryStart < 0 ? '' : url.slice(queryStart + 1);
  const method = request.method ?? 'GET';
  try {
    if (uploadFolder && method === 'POST' && UPLOAD_PATH.test(path)) {
      await plainUpload(request, response, uploadFolder);
      return;
    }
    const leastWork = uploadFolder && method === 'POST' ? LEAST_WORK_UPLOAD_PATH.exec(path) : null;
    if (uploadFolder && leastWork) {
      const caller = await auth.authenticate(request);
      limiter.consume(caller.apiKeyId, true, response);
      await leastWorkUpload(request, response, uploadFolder, pool, caller, leastWork[1]);
      return;
    }
    const download = uploadFolder && method === 'GET' ? CONTENT_PATH.exec(path) : null;
    if (uploadFolder && download) {
      await plainDownload(response, uploadFolder, download[1]);
      return;
    }
    const body = ['POST', 'PUT', 'PATCH'].includes(method) ? await readJsonBody(request) : {};
    if (method === 'GET' && /^\/health\/ready\/?$/i.test(path)) {
      await pool.query('SELECT 1');
      sendJson(response, 200, { status: 'ready' });
      return;
    }
    let match: RegExpExecArray | null = null;
    const route = routes.find(
      (candidate) => candidate.method === method && (match = candidate.path.exec(path)) !== null,
    );
    if (!route || !match) throw new HttpError(404, 'Route not found');
    const caller = await auth.authenticate(request);
    limiter.consume(caller.apiKeyId, WRITE_METHODS.has(method), response);
    const key = request.headers['idempotency-key'];
    const answer = await route.handler({
      caller,
      id: decodePathPart((match as RegExpExecArray)[1]),
      path: url,
      search,
      body,
      idempotencyKey: typeof key === 'string' ? key : undefined,
    });
    const [status, text] = Array.isArray(answer)
      ? [answer[0], JSON.stringify(answer[1])]
      : [answer.status, answer.text];
    const headers: Record<string, string> = route.tagged ? { ETag: entityTagOf(text) } : {};
    if (!Array.isArray(answer)) headers['Idempotent-Replayed'] = String(answer.replayed);
    sendText(response, status, text, headers);
  } catch (error) {
    const failure = error instanceof HttpError ? error : databaseFailure(error);
    if (!failure)
      process.stderr.write(`[floor] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    const { status, message, headers } = failure ?? new HttpError(500, 'Internal server error');
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    if (!response.headersSent) sendJson(response, status, { error: message });
    else response.end();
  }
}

const server = createServer((request, response) => void serve(request, response));
await keys.start();
server.listen(env('PORT', 3100), () => process.stdout.write(`floor listening on ${env('PORT', 3100)}\n`));

function stop(): void {
  server.close(() => void Promise.all([pool.end(), keys.stop()]).then(() => process.exit(0)));
  server.closeAllConnections();
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
