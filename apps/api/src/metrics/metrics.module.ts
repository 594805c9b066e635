import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/index.js';
import { ApiMetrics } from './api-metrics.js';
import { MetricsController } from './metrics.controller.js';

/** `GET /metrics` and the counters behind it; imported only when `METRICS_ENABLED` is true. */
@Module({ imports: [WebhooksModule], controllers: [MetricsController], providers: [ApiMetrics], exports: [ApiMetrics] })
export class MetricsModule {}
