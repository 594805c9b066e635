import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/common';
import { ApiMetrics } from './api-metrics.js';

/**
 * Prometheus scrape endpoint: no API key, no rate limit, outside `/v1`, and not part of the API's OpenAPI
 * document (it is for the operator's monitoring, not for integrators).
 */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ApiMetrics) {}

  @Get()
  async scrape(@Res() response: Response): Promise<void> {
    const body = await this.metrics.scrape();
    response.status(200).setHeader('Content-Type', this.metrics.registry.contentType);
    response.setHeader('Cache-Control', 'no-store');
    response.end(body);
  }
}
