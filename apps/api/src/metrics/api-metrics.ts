import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { AppConfig, routeTemplateOf } from '@app/common';
import { WebhookDispatcher } from '../webhooks/index.js';
import { registerDatabasePoolMetrics } from './database-pool.metrics.js';
import { RequestSeries } from './request-series.js';
import { registerWebhookMetrics } from './webhook.metrics.js';

/** The `route` label of requests no route matched: unknown paths would otherwise make one series each. */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The service's Prometheus metrics, in a registry of this application instance (not prom-client's global
 * one), so several instances in one process — the end-to-end tests — each count their own requests.
 */
@Injectable()
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly series = new RequestSeries([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  private readonly rateLimited = new Counter({
    name: 'http_rate_limited_requests_total',
    help: 'Requests refused with 429 because the API key was over a rate limit',
    labelNames: ['route', 'method'] as const,
    registers: [this.registry],
  });

  constructor(@InjectDataSource() dataSource: DataSource, config: AppConfig, dispatcher: WebhookDispatcher) {
    // Counted per request in `series`, handed to prom-client when scraped.
    this.registry.registerMetric(
      this.series.counter('http_requests_total', 'HTTP requests answered, by route template, method and status'),
    );
    this.registry.registerMetric(
      this.series.histogram(
        'http_request_duration_seconds',
        'Time from receiving a request to sending the last byte of its response',
      ),
    );
    collectDefaultMetrics({ register: this.registry });
    registerDatabasePoolMetrics(this.registry, dataSource, config.DB_POOL_SIZE);
    registerWebhookMetrics(this.registry, dispatcher);
  }

  /** Express middleware, first in the chain: every answered request is counted, 404s and 413s included. */
  readonly countRequests = (request: Request, response: Response, next: NextFunction): void => {
    const started = performance.now();
    response.once('finish', () => {
      const route = routeTemplateOf(request) ?? UNMATCHED_ROUTE;
      this.series.record(route, request.method, response.statusCode, (performance.now() - started) / 1000);
      if (response.statusCode === 429) this.rateLimited.inc({ route, method: request.method });
    });
    next();
  };

  /** The text exposition format, collected now. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
