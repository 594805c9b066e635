import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiDataResponse,
  ApiErrors,
  ApiPageResponse,
  ApiWrite,
  Authenticated,
  IdParam,
  NoBody,
  TeamId,
  type Page,
} from '@app/common';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto.js';
import { WebhookPageQuery } from './dto/list-deliveries.query.js';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto.js';
import {
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './dto/webhook-endpoint.response.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

@ApiTags('Webhooks')
@Authenticated()
@Controller('webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add a webhook endpoint',
    description:
      'Every event of the team (or of `types`) is POSTed to `url`, signed per Standard Webhooks with the `secret` ' +
      'in this answer (shown only here and on rotation). At most 20 endpoints per team (the 21st is 400). The URL ' +
      'must be https and its host must not resolve to a loopback, private, link-local or metadata address: put ' +
      'your receiver’s URL in place of the example, whose host does not exist. See docs/webhooks.md.',
  })
  @ApiWrite(WebhookEndpointWithSecretResponse, 201, 'Created, with its signing secret', 400, 413)
  async create(
    @TeamId() teamId: string,
    @Body() body: CreateWebhookEndpointDto,
  ): Promise<{ data: WebhookEndpointWithSecretResponse }> {
    return { data: await this.endpoints.create(teamId, body) };
  }

  @Get()
  @ApiOperation({ summary: 'List webhook endpoints', description: 'Newest first; never the secrets.' })
  @ApiPageResponse(WebhookEndpointResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: WebhookPageQuery): Promise<Page<WebhookEndpointResponse>> {
    return this.endpoints.list(teamId, query);
  }

  @Get(':endpointId')
  @ApiOperation({ summary: 'Get a webhook endpoint', description: 'Never its secret; see `disabledReason` when off.' })
  @ApiParam({ name: 'endpointId', format: 'uuid' })
  @ApiDataResponse(WebhookEndpointResponse)
  @ApiErrors(400, 404)
  async get(@TeamId() teamId: string, @IdParam('endpointId') id: string): Promise<{ data: WebhookEndpointResponse }> {
    return { data: await this.endpoints.get(teamId, id) };
  }

  @Put(':endpointId')
  @ApiOperation({
    summary: 'Update a webhook endpoint',
    description:
      'Partial: an omitted field keeps its value. `enabled: false` pauses it; `enabled: true` resumes it and ' +
      'clears `disabledReason`. A `url`, when sent, must be your receiver’s URL (not the example’s host).',
  })
  @ApiParam({ name: 'endpointId', format: 'uuid' })
  @ApiWrite(WebhookEndpointResponse, 200, 'Updated', 400, 404, 413)
  async update(
    @TeamId() teamId: string,
    @IdParam('endpointId') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<{ data: WebhookEndpointResponse }> {
    return { data: await this.endpoints.update(teamId, id, body) };
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'Its pending deliveries are dropped.' })
  @ApiParam({ name: 'endpointId', format: 'uuid' })
  @ApiWrite(undefined, 204, 'Deleted; no body', 400, 404)
  async remove(@TeamId() teamId: string, @IdParam('endpointId') id: string): Promise<void> {
    await this.endpoints.remove(teamId, id);
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: 'Answers the endpoint with its new `secret`; for 24 hours deliveries carry signatures by both.',
  })
  @ApiParam({ name: 'endpointId', format: 'uuid' })
  @ApiWrite(WebhookEndpointWithSecretResponse, 200, 'The endpoint with its new secret', 400, 404)
  async rotateSecret(
    @TeamId() teamId: string,
    @IdParam('endpointId') id: string,
    @NoBody() _body: void,
  ): Promise<{ data: WebhookEndpointWithSecretResponse }> {
    return { data: await this.endpoints.rotateSecret(teamId, id) };
  }

  @Post(':endpointId/test')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a test event',
    description:
      'Queues `{"id":"evt_…","type":"ping","createdAt","data":{"object":{"id":<endpoint id>}}}` for this endpoint ' +
      'only (never in the feed). 409 when the endpoint is disabled.',
  })
  @ApiParam({ name: 'endpointId', format: 'uuid' })
  @ApiWrite(WebhookDeliveryResponse, 202, 'Queued: the delivery', 400, 404, 409)
  async sendTest(
    @TeamId() teamId: string,
    @IdParam('endpointId') id: string,
    @NoBody() _body: void,
  ): Promise<{ data: WebhookDeliveryResponse }> {
    return { data: await this.endpoints.sendTest(teamId, id) };
  }

  @Get(':endpointId/deliveries')
  @ApiOperation({ summary: 'List an endpoint’s deliveries', description: 'Newest first: the delivery log.' })
  @ApiParam({ name: 'endpointId', format: 'uuid' })
  @ApiPageResponse(WebhookDeliveryResponse)
  @ApiErrors(400, 404)
  deliveries(
    @TeamId() teamId: string,
    @IdParam('endpointId') id: string,
    @Query() query: WebhookPageQuery,
  ): Promise<Page<WebhookDeliveryResponse>> {
    return this.endpoints.deliveries(teamId, id, query);
  }

  @Post(':endpointId/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a delivery again', description: 'Now, with a fresh round of attempts.' })
  @ApiParam({ name: 'endpointId', format: 'uuid' })
  @ApiParam({ name: 'deliveryId', format: 'uuid' })
  @ApiWrite(WebhookDeliveryResponse, 202, 'Queued again', 400, 404)
  async retry(
    @TeamId() teamId: string,
    @IdParam('endpointId') id: string,
    @IdParam('deliveryId') deliveryId: string,
    @NoBody() _body: void,
  ): Promise<{ data: WebhookDeliveryResponse }> {
    return { data: await this.endpoints.retry(teamId, id, deliveryId) };
  }
}
