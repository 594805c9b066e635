import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { WebhookDispatcher } from '../webhooks/index.js';

/**
 * Webhook delivery metrics: the queue's depth (pending deliveries, all instances; read at scrape time through
 * the partial index on pending rows), and this instance's attempts by outcome with their duration.
 */
export function registerWebhookMetrics(registry: Registry, dispatcher: WebhookDispatcher): void {
  new Gauge({
    name: 'webhook_queue_depth',
    help: 'Webhook deliveries waiting to be sent (due now or later), across every instance',
    registers: [registry],
    async collect() {
      this.set(await dispatcher.queueDepth());
    },
  });
  const attempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by this instance, by outcome (succeeded, retry: failed and retried later, failed: gave up)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Time from sending a delivery to the end of the answer (or the failure)',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  dispatcher.observe = (outcome, seconds) => {
    attempts.inc({ outcome });
    duration.observe({ outcome }, seconds);
  };
}
