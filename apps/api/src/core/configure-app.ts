import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import express from 'express';
import {
  API_KEY_SCHEME,
  ApiInputPipe,
  apiResponseHeaders,
  answerUnmatchedPathsWith,
  AppConfig,
  bodyParserErrors,
  documentApiResponseHeaders,
  finishDocument,
  jsonBodyParser,
  markTestModeAnswers,
  requestLogger,
  requireJsonContentType,
  requireObjectBody,
  RequestGate,
  securityHeaders,
  setProtectiveHeaders,
  unmatchedPageFor,
  type AuthenticatedRequest,
  type Logger,
} from '@app/common';
import { dashboardNotFoundPage } from '../dashboard/index.js';
import { ResourceCsvs } from '../exports/index.js';
import { ApiMetrics } from '../metrics/index.js';
import {
  API_PREFIX,
  API_VERSION,
  DASHBOARD_PATH,
  DOCS_PATH,
  FAVICON_PATH,
  HEALTH_PATHS,
  METRICS_PATH,
  OPENAPI_PATH,
} from './paths.js';

export * from './paths.js';

const DASHBOARD_PREFIX = /^\/dashboard(\/|$)/;
/** Uploads: multipart bodies streamed by their handler, never parsed as JSON (docs/attachments.md). */
const UPLOAD_PATH = /^\/v1\/work-orders\/[^/]+\/attachments\/?$/;
/** Imports: CSV or NDJSON bodies streamed by their handler (docs/imports.md), up to 20 MiB. */
const IMPORT_PATH = /^\/v1\/imports\/?$/;

/** A middleware for the JSON API only: not the dashboard (HTML forms) nor an upload. */
function outsideDashboard(handler: express.RequestHandler): express.RequestHandler {
  return (request, response, next) => {
    if (request.method === 'POST' && (UPLOAD_PATH.test(request.path) || IMPORT_PATH.test(request.path))) {
      // An upload's Idempotency-Key compares method and path: its body is the stream, read once by the handler.
      request.body ??= {};
      next();
    } else if (DASHBOARD_PREFIX.test(request.path)) next();
    else handler(request, response, next);
  };
}

const documents = new WeakMap<NestExpressApplication, OpenAPIObject>();

/** The document the app serves at `/v1/openapi.json`, without a request (which would be logged and counted). */
export function openApiDocumentOf(app: NestExpressApplication): OpenAPIObject | undefined {
  return documents.get(app);
}

/**
 * After `app.init()`: requests no route matched, outside `/v1` too (Nest answers only under its prefix),
 * get the same `404 {error}` as everything else.
 */
export function answerUnmatchedRoutes(app: NestExpressApplication): void {
  app.use((request: AuthenticatedRequest, response: express.Response) => {
    if (request.rateLimited) response.status(429).json({ error: 'Rate limit exceeded' });
    else {
      // Under the dashboard, a person's browser: a page in its layout with a way back, not JSON.
      const page = unmatchedPageFor(request.path);
      if (page !== undefined) response.status(404).type('html').send(page);
      else response.status(404).json({ error: 'Route not found' });
    }
  });
}

/** Everything between creating the app and initialising it; `createApi` calls it for `main.ts` and the tests. */
export function configureApp(app: NestExpressApplication, config: AppConfig, logger: Logger): void {
  app.disable('x-powered-by');
  app.set('etag', false);
  // A path under the dashboard that is no page: a 404 page in its layout, wherever the 404 is answered.
  answerUnmatchedPathsWith(DASHBOARD_PREFIX, dashboardNotFoundPage);
  // The client address behind that many proxies (request.ip), for the failed-authentication limit.
  app.set('trust proxy', config.TRUST_PROXY_HOPS);
  // First of all: every answer to a request with a test key says so, whichever route (or none) answers it.
  app.use(markTestModeAnswers);
  // Before anything can answer: every /v1 answer, a refusal too, is no-store and nosniff (and a 201 has Location).
  app.use(apiResponseHeaders(API_PREFIX));
  // The bare host answers where everything is: GET /v1.
  app.use((request: express.Request, response: express.Response, next: express.NextFunction) => {
    if (request.path === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      response.redirect(302, `/${API_PREFIX}`);
    } else next();
  });
  // First in the chain, so requests refused by the body checks below are counted and logged too.
  if (config.METRICS_ENABLED) app.use(app.get(ApiMetrics).countRequests);
  app.use(requestLogger(logger));
  // Before the body is read: a request with a valid key is counted and carries X-RateLimit-* whatever answers it.
  app.use(app.get(RequestGate).handle);
  // The probes' answers are never cached nor sniffed either, like every /v1 answer.
  app.use(
    `/${HEALTH_PATHS[0]}`,
    (_request: express.Request, response: express.Response, next: express.NextFunction) => {
      setProtectiveHeaders(response);
      next();
    },
  );
  // Swagger UI at `/docs/` (a trailing slash) would load its scripts from `/docs/docs/…` and show nothing.
  app.use((request: express.Request, response: express.Response, next: express.NextFunction) => {
    if (request.path !== `/${DOCS_PATH}/` || (request.method !== 'GET' && request.method !== 'HEAD')) return next();
    const query = request.originalUrl.indexOf('?');
    response.redirect(301, `/${DOCS_PATH}${query === -1 ? '' : request.originalUrl.slice(query)}`);
  });
  // The HTML pages (Swagger UI, the dashboard) get a strict Content-Security-Policy and the other browser headers.
  app.use(`/${DOCS_PATH}`, securityHeaders('docs'));
  app.use(`/${DASHBOARD_PATH}`, securityHeaders('dashboard'));
  // The dashboard's forms are URL-encoded and small; everything else speaks JSON only.
  app.use(`/${DASHBOARD_PATH}`, express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));
  app.use(outsideDashboard(requireJsonContentType));
  app.use(outsideDashboard(jsonBodyParser()));
  app.use(bodyParserErrors);
  app.use(outsideDashboard(requireObjectBody));
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [...HEALTH_PATHS, METRICS_PATH, DASHBOARD_PATH, `${DASHBOARD_PATH}/*path`, FAVICON_PATH],
  });
  // Strings trimmed, then validated (ApiInputPipe: TrimStringsPipe and createValidationPipe as one pipe).
  app.useGlobalPipes(new ApiInputPipe());

  // The lists' `text/csv` answers are documented, and every resource's CSV columns derived, from this document.
  const document = app.get(ResourceCsvs).useDocument(
    documentApiResponseHeaders(
      finishDocument(
        SwaggerModule.createDocument(
          app,
          new DocumentBuilder()
            .setTitle('Property Portfolio API')
            .setDescription(
              'Manage a property portfolio programmatically: tenants, units, landlords, contractors and maintenance ' +
                'work orders. Every record belongs to the team of the API key that reaches it. Send the key in the ' +
                '`Authorization` header as `Bearer ppk_…` (in Swagger UI: **Authorize**, then type `Bearer `, a space ' +
                'and the key). Limits per key, in a sliding 60-second window: ' +
                `${config.RATE_LIMIT_PER_MINUTE} requests, of which ${config.RATE_LIMIT_WRITES_PER_MINUTE} writes ` +
                '(POST, PUT, DELETE); every answer to a request with a valid key carries `X-RateLimit-Limit`, ' +
                '`X-RateLimit-Remaining` and `X-RateLimit-Reset`, and a 429 adds `Retry-After`. Every error body is ' +
                '`{"error": "…"}`.',
            )
            .setVersion(API_VERSION)
            .addApiKey(
              {
                type: 'apiKey',
                in: 'header',
                name: 'Authorization',
                // Swagger UI renders this as HTML: no angle brackets, or the placeholder disappears.
                description:
                  'Type the word Bearer, one space, then the API key, e.g. `Bearer ppk_3xAmpLe…`. ' +
                  'The key alone (without `Bearer `) is answered 401. Keys come from the developer dashboard at ' +
                  '`/dashboard` on this server (sign up or sign in, then API keys, Create key; the demo account is ' +
                  'printed by the first `npm start`), or from `npm run --silent cli -- keys create --team TEAM_ID`. ' +
                  'A read-only key answers 403 to POST, PUT and DELETE; an expired, revoked or rolled key (after its ' +
                  "grace period) answers 401. Test keys (`ppk_test_…`, from the dashboard's Test mode switch or " +
                  "`keys create --team TEAM_ID --test`) reach only the team's sandbox: the same API, validation and " +
                  'limits, its own records, events, webhooks, imports and attachments, never the live ones (nor live ' +
                  "keys the sandbox's), and every answer carries `X-Test-Mode: true`. `POST /v1/sandbox/reset` " +
                  'empties it and can load sample data. See docs/test-mode.md.',
              },
              API_KEY_SCHEME,
            )
            .build(),
        ),
      ),
      API_PREFIX,
    ),
  );
  documents.set(app, document);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_PATH,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
    customSiteTitle: 'Property Portfolio API',
    swaggerOptions: { persistAuthorization: true },
  });
}
