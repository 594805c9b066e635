import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiCreate,
  ApiDelete,
  ApiErrors,
  ApiGetOne,
  ApiPageResponse,
  ApiUpdate,
  Authenticated,
  ConditionalResource,
  IdParam,
  TeamId,
  type Page,
} from '@app/common';
import { CreateWorkOrderDto } from './dto/create-work-order.dto.js';
import { ListWorkOrdersQuery } from './dto/list-work-orders.query.js';
import { UpdateWorkOrderDto } from './dto/update-work-order.dto.js';
import { WorkOrderResponse } from './dto/work-order.response.js';
import { WorkOrdersService } from './work-orders.service.js';

@ApiTags('Work orders')
@Authenticated()
@ConditionalResource({ source: WorkOrdersService, idParam: 'workOrderId', name: 'Work order' })
@Controller('work-orders')
export class WorkOrdersController {
  constructor(private readonly workOrders: WorkOrdersService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Report a work order',
    description:
      'Starts as `reported` with the next code of the team (`WO-1`, `WO-2`, …). `unitId`, `tenantId` and ' +
      '`contractorId` must name records of the team (400 otherwise); `status` is not accepted here.',
  })
  @ApiCreate(WorkOrderResponse)
  async create(@TeamId() teamId: string, @Body() body: CreateWorkOrderDto): Promise<{ data: WorkOrderResponse }> {
    return { data: await this.workOrders.create(teamId, body) };
  }

  @Get()
  @ApiOperation({
    summary: 'List work orders',
    description: 'Newest first unless `sort` says otherwise; filters combine with AND.',
  })
  @ApiPageResponse(WorkOrderResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: ListWorkOrdersQuery): Promise<Page<WorkOrderResponse>> {
    return this.workOrders.list(teamId, query);
  }

  @Get(':workOrderId')
  @ApiOperation({ summary: 'Get a work order' })
  @ApiParam({ name: 'workOrderId', format: 'uuid' })
  @ApiGetOne(WorkOrderResponse)
  async get(@TeamId() teamId: string, @IdParam('workOrderId') id: string): Promise<{ data: WorkOrderResponse }> {
    return { data: await this.workOrders.get(teamId, id) };
  }

  @Put(':workOrderId')
  @ApiOperation({
    summary: 'Update a work order',
    description:
      'Partial: omitted fields keep their value, `null` clears a nullable one. A status move the transition ' +
      'table does not allow is a 409. Entering `completed` sets `resolvedAt` and `selfResolved`; leaving it clears them.',
  })
  @ApiParam({ name: 'workOrderId', format: 'uuid' })
  @ApiUpdate(WorkOrderResponse)
  async update(
    @TeamId() teamId: string,
    @IdParam('workOrderId') id: string,
    @Body() body: UpdateWorkOrderDto,
  ): Promise<{ data: WorkOrderResponse }> {
    return { data: await this.workOrders.update(teamId, id, body) };
  }

  @Delete(':workOrderId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a work order',
    description: 'Always possible. Its code is never given to another work order; the totals drop by one.',
  })
  @ApiParam({ name: 'workOrderId', format: 'uuid' })
  @ApiDelete()
  async remove(@TeamId() teamId: string, @IdParam('workOrderId') id: string): Promise<void> {
    await this.workOrders.remove(teamId, id);
  }
}
