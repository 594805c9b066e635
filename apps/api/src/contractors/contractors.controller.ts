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
import { ContractorsService } from './contractors.service.js';
import { ContractorResponse } from './dto/contractor.response.js';
import { CreateContractorDto } from './dto/create-contractor.dto.js';
import { ListContractorsQuery } from './dto/list-contractors.query.js';
import { UpdateContractorDto } from './dto/update-contractor.dto.js';

@ApiTags('Contractors')
@Authenticated()
@ConditionalResource({ source: ContractorsService, idParam: 'contractorId', name: 'Contractor' })
@Controller('contractors')
export class ContractorsController {
  constructor(private readonly contractors: ContractorsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a contractor' })
  @ApiCreate(ContractorResponse)
  async create(@TeamId() teamId: string, @Body() body: CreateContractorDto): Promise<{ data: ContractorResponse }> {
    return { data: await this.contractors.create(teamId, body) };
  }

  @Get()
  @ApiOperation({
    summary: 'List contractors',
    description: 'Newest first unless `sort` says otherwise; filters combine with AND.',
  })
  @ApiPageResponse(ContractorResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: ListContractorsQuery): Promise<Page<ContractorResponse>> {
    return this.contractors.list(teamId, query);
  }

  @Get(':contractorId')
  @ApiOperation({ summary: 'Get a contractor' })
  @ApiParam({ name: 'contractorId', format: 'uuid' })
  @ApiGetOne(ContractorResponse)
  async get(@TeamId() teamId: string, @IdParam('contractorId') id: string): Promise<{ data: ContractorResponse }> {
    return { data: await this.contractors.get(teamId, id) };
  }

  @Put(':contractorId')
  @ApiOperation({ summary: 'Update a contractor', description: 'Partial: omitted fields keep their value.' })
  @ApiParam({ name: 'contractorId', format: 'uuid' })
  @ApiUpdate(ContractorResponse)
  async update(
    @TeamId() teamId: string,
    @IdParam('contractorId') id: string,
    @Body() body: UpdateContractorDto,
  ): Promise<{ data: ContractorResponse }> {
    return { data: await this.contractors.update(teamId, id, body) };
  }

  @Delete(':contractorId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a contractor',
    description: 'Refused with 409 while work orders are assigned to the contractor.',
  })
  @ApiParam({ name: 'contractorId', format: 'uuid' })
  @ApiDelete()
  async remove(@TeamId() teamId: string, @IdParam('contractorId') id: string): Promise<void> {
    await this.contractors.remove(teamId, id);
  }
}
