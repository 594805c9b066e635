import type { IncomingMessage, ServerResponse } from 'node:http';

/** A failure answered as `{error}` with its status, like the service's exception filter. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

export const MAX_BODY_BYTES = 1_048_576;

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  sendText(response, status, JSON.stringify(body));
}

/** JSON text as it is sent; `headers` adds e.g. the ETag. */
export function sendText(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

function declaresBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * The service's body handling: a write's body must be declared as JSON (415), fit in 1 MiB (413), parse (400)
 * and be an object (400); an absent body counts as `{}`.
 */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  if (!declaresBody(request)) {
    request.resume();
    return {};
  }
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    request.resume();
    throw new HttpError(415, 'Content-Type must be application/json');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      request.resume();
      throw new HttpError(413, `Request body exceeds the limit of ${MAX_BODY_BYTES} bytes (1 MiB)`);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      400,
      `Malformed JSON in request body: ${error instanceof Error ? error.message : 'parse error'}`,
    );
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** PostgreSQL errors that are the caller's fault or temporary, mapped as the service maps them. */
export function databaseFailure(error: unknown): HttpError | undefined {
  switch ((error as { code?: unknown }).code) {
    case '22021':
    case '22P05':
      return new HttpError(400, 'A value contains characters that cannot be stored');
    case '23503':
      return new HttpError(400, 'A referenced record does not exist');
    case '57014':
      return new HttpError(503, 'The request took too long and was cancelled');
    case '40001':
    case '40P01':
      return new HttpError(503, 'The request conflicted with another one; retry it');
    default:
      return undefined;
  }
}
