import type { ServerResponse } from 'node:http';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';

/**
 * Headers on every answer under the API prefix, errors included: `Cache-Control: no-store` (answers carry team
 * data, a new key or a webhook secret: no cache or proxy may keep them; ETag and If-None-Match still work, as a
 * client revalidates with its own copy) and `X-Content-Type-Options: nosniff` (a JSON answer is never run as
 * something else). A 201 also gets `Location`: the URL of the record it created (`data.id` under the request's
 * path), also when it is a replayed answer.
 */
export function apiResponseHeaders(prefix: string): (request: Request, response: Response, next: NextFunction) => void {
  // Any case of letters, as Express routes them (`/V1/…` is served too).
  const underPrefix = new RegExp(`^/${prefix}(/|$)`, 'i');
  return (request, response, next) => {
    if (!underPrefix.test(request.path)) return next();
    setProtectiveHeaders(response);
    if (request.method === 'POST') locateCreatedRecord(request, response);
    next();
  };
}

/** `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`: on every answer under the prefix (above). */
export function setProtectiveHeaders(response: ServerResponse): void {
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('X-Content-Type-Options', 'nosniff');
}

/** The `data.id` of a JSON answer body, if it has one. */
function createdId(chunk: unknown): string | undefined {
  if (typeof chunk !== 'string' && !Buffer.isBuffer(chunk)) return undefined;
  try {
    const body = JSON.parse(chunk.toString()) as { data?: { id?: unknown } } | null;
    const id = body?.data?.id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Sets `Location` on a 201 just before its body is written (Express, Nest and replays all end with `end`). */
function locateCreatedRecord(request: Request, response: Response): void {
  const end = response.end.bind(response) as (...args: unknown[]) => Response;
  response.end = ((...args: unknown[]) => {
    if (response.statusCode === 201 && !response.headersSent && !response.hasHeader('Location')) {
      const id = createdId(args[0]);
      const collection = (request.originalUrl.split('?')[0] ?? '').replace(/\/+$/, '');
      if (id) response.setHeader('Location', `${collection}/${encodeURIComponent(id)}`);
    }
    return end(...args);
  }) as Response['end'];
}

type Operation = { responses?: Record<string, { headers?: Record<string, unknown> }> };

const NO_STORE = {
  description: 'Always `no-store`: answers carry team data (and, once, new keys and webhook secrets)',
  required: true,
  schema: { type: 'string', enum: ['no-store'] },
};
const NO_SNIFF = {
  description: 'Always `nosniff`',
  required: true,
  schema: { type: 'string', enum: ['nosniff'] },
};
const LOCATION = {
  description: 'The URL path of the created record (`/v1/<collection>/<id>`), also on a replayed answer',
  required: true,
  schema: { type: 'string', format: 'uri-reference' },
};
export const WWW_AUTHENTICATE = {
  description:
    'RFC 6750: `Bearer realm="Property Portfolio API"`, with `error="invalid_request"` for a malformed ' +
    'Authorization header and `error="invalid_token"` for a key that is unknown, revoked or expired',
  required: true,
  schema: { type: 'string', example: 'Bearer realm="Property Portfolio API", error="invalid_token"' },
};

const TEST_MODE = {
  description:
    '`true` on every answer to a request that presents a test key (`Authorization: Bearer ppk_test_…`), on ' +
    "operations that need no key too: the request was made in the team's sandbox, not on its live data. Absent " +
    'for live keys and requests without a key.',
  required: false,
  schema: { type: 'string', enum: ['true'] },
};

/**
 * The headers above, in the document: on every response of every operation under the prefix; `X-Test-Mode` on
 * every response of every operation, since it follows the key a request presents, not the operation.
 */
export function documentApiResponseHeaders(document: OpenAPIObject, prefix: string): OpenAPIObject {
  for (const [path, operations] of Object.entries(document.paths)) {
    const underPrefix = path.startsWith(`/${prefix}/`) || path === `/${prefix}`;
    for (const operation of Object.values(operations as Record<string, Operation>)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          ...(underPrefix
            ? {
                'Cache-Control': NO_STORE,
                'X-Content-Type-Options': NO_SNIFF,
                ...(status === '201' ? { Location: LOCATION } : {}),
                ...(status === '401' ? { 'WWW-Authenticate': WWW_AUTHENTICATE } : {}),
              }
            : {}),
          'X-Test-Mode': TEST_MODE,
        };
      }
    }
  }
  return document;
}
