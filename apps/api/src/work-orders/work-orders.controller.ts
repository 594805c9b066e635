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
  enumFilter,
  IdParam,
  listDescription,
  updateDescription,
  TeamId,
  type Page,
} from '@app/common';
import { CreateWorkOrderDto } from './dto/create-work-order.dto.js';
import { ListWorkOrdersQuery } from './dto/list-work-orders.query.js';
import { UpdateWorkOrderDto } from './dto/update-work-order.dto.js';
import { WorkOrderResponse } from './dto/work-order.response.js';
import { WORK_ORDER_PRIORITIES, WORK_ORDER_STATUSES } from './work-order.entity.js';
import { WorkOrdersService } from './work-orders.service.js';
import { WORK_ORDER_EXAMPLE } from './work-order.example.js';

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
      '`title` and `unitId` are required. `unitId` must be the id of one of your units: create one with ' +
      '`POST /v1/units` (or find one with `GET /v1/units`) and paste its `id` over the example, which names the ' +
      'demo team’s unit (so it works as it stands with the demo key). `tenantId` and ' +
      '`contractorId` are optional (`null`: none); their ids come from `POST /v1/tenants` and ' +
      '`POST /v1/contractors`. An id that names no record of the team is 400.\n\n' +
      'The work order starts `reported` with the team’s next code (`WO-1`, `WO-2`, …), `intakeChannel` `api`, ' +
      '`selfResolved` false and `resolvedAt` null. `priority` is `"0"` (emergency) to `"3"` (low), default `"2"`; ' +
      'the integers 0–3 are accepted too. `status` is not accepted here (400).',
  })
  @ApiCreate(WorkOrderResponse)
  async create(@TeamId() teamId: string, @Body() body: CreateWorkOrderDto): Promise<{ data: WorkOrderResponse }> {
    return { data: await this.workOrders.create(teamId, body) };
  }

  @Get()
  @ApiOperation({
    summary: 'List work orders',
    description: listDescription('the title or the code (`wo-12` finds WO-12, WO-120, …)', [
      enumFilter('status', WORK_ORDER_STATUSES),
      enumFilter('priority', WORK_ORDER_PRIORITIES),
      '`unitId`, `tenantId`, `contractorId`: work orders at that unit, reported by that tenant, assigned to that ' +
        'contractor (one id each).',
    ]),
  })
  @ApiPageResponse(WorkOrderResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: ListWorkOrdersQuery): Promise<Page<WorkOrderResponse>> {
    return this.workOrders.list(teamId, query);
  }

  @Get(':workOrderId')
  @ApiOperation({ summary: 'Get a work order' })
  @ApiParam({ name: 'workOrderId', format: 'uuid', example: WORK_ORDER_EXAMPLE.id })
  @ApiGetOne(WorkOrderResponse)
  async get(@TeamId() teamId: string, @IdParam('workOrderId') id: string): Promise<{ data: WorkOrderResponse }> {
    return { data: await this.workOrders.get(teamId, id) };
  }

  @Put(':workOrderId')
  @ApiOperation({
    summary: 'Update a work order',
    description: updateDescription(
      '`status` moves: `reported` → `in_progress`, `completed`, `cancelled`; `in_progress` → `reported`, ' +
        '`completed`, `cancelled`; `completed` → `in_progress`; `cancelled` → `reported`. Setting the current ' +
        'status again changes nothing; any other move is 409 (`Cannot change status from completed to cancelled`).',
      'Entering `completed` sets `resolvedAt` to now and `selfResolved` to whether no contractor is assigned once ' +
        'the update is applied; leaving it clears `resolvedAt` and sets `selfResolved` false.',
      '`unitId` (required on create, so not `null` here), `tenantId` and `contractorId` must name records of the ' +
        'team (400 otherwise): send `unitId` only to move the work order to another unit, with an id from ' +
        '`POST /v1/units` or `GET /v1/units`; `contractorId: null` unassigns the contractor.',
    ),
  })
  @ApiParam({ name: 'workOrderId', format: 'uuid', example: WORK_ORDER_EXAMPLE.id })
  @ApiUpdate(WorkOrderResponse, { 409: 'Cannot change status from completed to cancelled' })
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
    description:
      '204. Always possible. Its code is never given to another work order; list totals and the assigned ' +
      'contractor’s `completedJobs` no longer count it.',
  })
  @ApiParam({ name: 'workOrderId', format: 'uuid', example: WORK_ORDER_EXAMPLE.id })
  @ApiDelete(WorkOrderResponse)
  async remove(@TeamId() teamId: string, @IdParam('workOrderId') id: string): Promise<void> {
    await this.workOrders.remove(teamId, id);
  }
}
