import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiStartingResponse, AppConfig, Public } from '@app/common';
import { API_VERSION, DASHBOARD_PATH, DOCS_PATH, HEALTH_PATHS, OPENAPI_PATH } from '../core/index.js';

class DiscoveryLinks {
  @ApiProperty({ example: 'http://localhost:3000/v1/openapi.json', description: 'The OpenAPI 3 document (no key)' })
  openapi!: string;

  @ApiProperty({ example: 'http://localhost:3000/docs', description: 'Swagger UI: read and try every operation' })
  docs!: string;

  @ApiProperty({
    example: 'http://localhost:3000/dashboard',
    description: 'The developer dashboard: sign up or in, create API keys, see usage',
  })
  dashboard!: string;

  @ApiProperty({ example: 'http://localhost:3000/health', description: 'Liveness probe' })
  health!: string;

  @ApiProperty({ example: 'http://localhost:3000/health/ready', description: 'Readiness probe (the database answers)' })
  ready!: string;
}

class Discovery {
  @ApiProperty({ example: 'Property Portfolio API' })
  name!: string;

  @ApiProperty({ example: API_VERSION, description: 'The version of this API (the OpenAPI document’s info.version)' })
  version!: string;

  @ApiProperty({
    example: 'Send Authorization: Bearer <key> to every other /v1 operation; keys come from the dashboard',
  })
  authentication!: string;

  @ApiProperty({ type: DiscoveryLinks })
  links!: DiscoveryLinks;
}

class DiscoveryResponse {
  @ApiProperty({ type: Discovery })
  data!: Discovery;
}

/**
 * `GET /v1` (and `/`, redirected here): what a person or a client finds at the base URL the start-up prints —
 * the version and where the document, Swagger UI, the dashboard and the probes are. No key, no rate limit.
 */
@ApiTags('Discovery')
@Public()
@Controller()
export class DiscoveryController {
  constructor(private readonly config: AppConfig) {}

  @Get()
  @ApiOperation({
    summary: 'Where everything is',
    description:
      'The API’s version and links to the OpenAPI document, Swagger UI, the developer dashboard and the health ' +
      'probes. Needs no key. The links are absolute: under `PUBLIC_URL` when it is set, else the request’s host.',
  })
  @ApiOkResponse({ type: DiscoveryResponse })
  @ApiStartingResponse()
  discover(@Req() request: Request): DiscoveryResponse {
    const base = (this.config.PUBLIC_URL ?? `${request.protocol}://${request.get('host') ?? 'localhost'}`).replace(
      /\/+$/,
      '',
    );
    const [health, ready] = HEALTH_PATHS;
    return {
      data: {
        name: 'Property Portfolio API',
        version: API_VERSION,
        authentication: 'Send Authorization: Bearer <key> to every other /v1 operation; keys come from the dashboard',
        links: {
          openapi: `${base}/${OPENAPI_PATH}`,
          docs: `${base}/${DOCS_PATH}`,
          dashboard: `${base}/${DASHBOARD_PATH}`,
          health: `${base}/${health}`,
          ready: `${base}/${ready}`,
        },
      },
    };
  }
}
