export { WebhooksModule } from './webhooks.module.js';
export { WebhookDispatcher } from './webhook-dispatcher.js';
export { WebhookEndpointsService } from './webhook-endpoints.service.js';
export { WebhookDeliveryResponse, WebhookEndpointResponse } from './dto/webhook-endpoint.response.js';
