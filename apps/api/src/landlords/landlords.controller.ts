import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrors, ApiPageResponse, Authenticated, IdParam, TeamId, type Page } from '@app/common';
import { CreateLandlordDto } from './dto/create-landlord.dto.js';
import { LandlordResponse } from './dto/landlord.response.js';
import { ListLandlordsQuery } from './dto/list-landlords.query.js';
import { UpdateLandlordDto } from './dto/update-landlord.dto.js';
import { LandlordsService } from './landlords.service.js';

@ApiTags('Landlords')
@Authenticated()
@Controller('landlords')
export class LandlordsController {
  constructor(private readonly landlords: LandlordsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a landlord' })
  @ApiDataResponse(LandlordResponse, 201, 'Created')
  @ApiErrors(400, 413)
  async create(@TeamId() teamId: string, @Body() body: CreateLandlordDto): Promise<{ data: LandlordResponse }> {
    return { data: await this.landlords.create(teamId, body) };
  }

  @Get()
  @ApiOperation({ summary: 'List landlords', description: 'Newest first; filters combine with AND.' })
  @ApiPageResponse(LandlordResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: ListLandlordsQuery): Promise<Page<LandlordResponse>> {
    return this.landlords.list(teamId, query);
  }

  @Get(':landlordId')
  @ApiOperation({ summary: 'Get a landlord' })
  @ApiParam({ name: 'landlordId', format: 'uuid' })
  @ApiDataResponse(LandlordResponse)
  @ApiErrors(400, 404)
  async get(@TeamId() teamId: string, @IdParam('landlordId') id: string): Promise<{ data: LandlordResponse }> {
    return { data: await this.landlords.get(teamId, id) };
  }

  @Put(':landlordId')
  @ApiOperation({ summary: 'Update a landlord', description: 'Partial: omitted fields keep their value.' })
  @ApiParam({ name: 'landlordId', format: 'uuid' })
  @ApiDataResponse(LandlordResponse)
  @ApiErrors(400, 404, 413)
  async update(
    @TeamId() teamId: string,
    @IdParam('landlordId') id: string,
    @Body() body: UpdateLandlordDto,
  ): Promise<{ data: LandlordResponse }> {
    return { data: await this.landlords.update(teamId, id, body) };
  }
}
