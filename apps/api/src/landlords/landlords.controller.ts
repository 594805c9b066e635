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
import { CreateLandlordDto } from './dto/create-landlord.dto.js';
import { LandlordResponse } from './dto/landlord.response.js';
import { ListLandlordsQuery } from './dto/list-landlords.query.js';
import { UpdateLandlordDto } from './dto/update-landlord.dto.js';
import { LANDLORD_STATUSES } from './landlord.entity.js';
import { LandlordsService } from './landlords.service.js';
import { LANDLORD_EXAMPLE } from './landlord.example.js';

@ApiTags('Landlords')
@Authenticated()
@ConditionalResource({ source: LandlordsService, idParam: 'landlordId', name: 'Landlord' })
@Controller('landlords')
export class LandlordsController {
  constructor(private readonly landlords: LandlordsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a landlord',
    description: '`name` is required; `status` is `active` or `inactive`, default `active`.',
  })
  @ApiCreate(LandlordResponse)
  async create(@TeamId() teamId: string, @Body() body: CreateLandlordDto): Promise<{ data: LandlordResponse }> {
    return { data: await this.landlords.create(teamId, body) };
  }

  @Get()
  @ApiOperation({
    summary: 'List landlords',
    description: listDescription('name, email or phone number', [enumFilter('status', LANDLORD_STATUSES)]),
  })
  @ApiPageResponse(LandlordResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: ListLandlordsQuery): Promise<Page<LandlordResponse>> {
    return this.landlords.list(teamId, query);
  }

  @Get(':landlordId')
  @ApiOperation({ summary: 'Get a landlord' })
  @ApiParam({ name: 'landlordId', format: 'uuid', example: LANDLORD_EXAMPLE.id })
  @ApiGetOne(LandlordResponse)
  async get(@TeamId() teamId: string, @IdParam('landlordId') id: string): Promise<{ data: LandlordResponse }> {
    return { data: await this.landlords.get(teamId, id) };
  }

  @Put(':landlordId')
  @ApiOperation({
    summary: 'Update a landlord',
    description: updateDescription('`status` may change here (`active` or `inactive`).'),
  })
  @ApiParam({ name: 'landlordId', format: 'uuid', example: LANDLORD_EXAMPLE.id })
  @ApiUpdate(LandlordResponse)
  async update(
    @TeamId() teamId: string,
    @IdParam('landlordId') id: string,
    @Body() body: UpdateLandlordDto,
  ): Promise<{ data: LandlordResponse }> {
    return { data: await this.landlords.update(teamId, id, body) };
  }

  @Delete(':landlordId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a landlord', description: '204. Always possible: nothing refers to a landlord.' })
  @ApiParam({ name: 'landlordId', format: 'uuid', example: LANDLORD_EXAMPLE.id })
  @ApiDelete(LandlordResponse)
  async remove(@TeamId() teamId: string, @IdParam('landlordId') id: string): Promise<void> {
    await this.landlords.remove(teamId, id);
  }
}
