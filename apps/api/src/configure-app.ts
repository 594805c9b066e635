import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import express from 'express';
import {
  API_KEY_SCHEME,
  AppConfig,
  bodyParserErrors,
  createValidationPipe,
  jsonBodyParser,
  requestLogger,
  requireJsonContentType,
  requireObjectBody,
  TrimStringsPipe,
} from '@app/common';

export const API_PREFIX = 'v1';
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = 'docs';

/**
 * Update bodies are partial: an omitted field keeps its value, so the create defaults they inherit through
 * `PartialType` would mislead. They are removed from every `Update…Dto` schema.
 */
function withoutUpdateDefaults(document: OpenAPIObject): void {
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    if (!/^Update\w+Dto$/.test(name) || !('properties' in schema)) continue;
    for (const property of Object.values(schema.properties ?? {})) {
      if ('default' in property) delete property.default;
    }
  }
}

/**
 * After `app.init()`: requests no route matched, outside `/v1` too (Nest answers only under its prefix),
 * get the same `404 {error}` as everything else.
 */
export function answerUnmatchedRoutes(app: NestExpressApplication): void {
  app.use((_request: express.Request, response: express.Response) => {
    response.status(404).json({ error: 'Route not found' });
  });
}

/** Everything between creating the app and listening; shared by `main.ts` and the end-to-end tests. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestLogger(config.LOG_LEVEL));
  app.use(requireJsonContentType);
  app.use(jsonBodyParser());
  app.use(bodyParserErrors);
  app.use(requireObjectBody);
  app.setGlobalPrefix(API_PREFIX, { exclude: ['health', 'health/ready'] });
  app.useGlobalPipes(new TrimStringsPipe(), createValidationPipe());

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Property Portfolio API')
      .setDescription(
        'Manage a property portfolio programmatically: tenants, units, landlords, contractors and maintenance ' +
          'work orders. Every record belongs to the team of the API key that reaches it. Send the key as ' +
          '`Authorization: Bearer <key>`. Limits per key, in a sliding 60-second window: ' +
          `${config.RATE_LIMIT_PER_MINUTE} requests, of which ${config.RATE_LIMIT_WRITES_PER_MINUTE} writes.`,
      )
      .setVersion('1.0.0')
      .addApiKey(
        { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Bearer <API key>, e.g. `Bearer ppk_…`' },
        API_KEY_SCHEME,
      )
      .build(),
  );
  withoutUpdateDefaults(document);
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_PATH,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
    customSiteTitle: 'Property Portfolio API',
    swaggerOptions: { persistAuthorization: true },
  });
}
