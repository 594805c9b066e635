import { Module } from '@nestjs/common';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookQueueRepository } from './webhook-queue.repository.js';

/** Webhook endpoints (`/v1/webhook-endpoints`) and the dispatcher that sends their deliveries. */
@Module({
  controllers: [WebhookEndpointsController],
  providers: [
    WebhookEndpointsService,
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookQueueRepository,
    WebhookDispatcher,
  ],
  exports: [WebhookEndpointsService, WebhookDispatcher],
})
export class WebhooksModule {}
