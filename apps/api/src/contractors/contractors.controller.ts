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
import { CONTRACTOR_STATUSES } from './contractor.entity.js';
import { ContractorsService } from './contractors.service.js';
import { ContractorResponse } from './dto/contractor.response.js';
import { CreateContractorDto } from './dto/create-contractor.dto.js';
import { ListContractorsQuery } from './dto/list-contractors.query.js';
import { UpdateContractorDto } from './dto/update-contractor.dto.js';
import { CONTRACTOR_EXAMPLE } from './contractor.example.js';

@ApiTags('Contractors')
@Authenticated()
@ConditionalResource({ source: ContractorsService, idParam: 'contractorId', name: 'Contractor' })
@Controller('contractors')
export class ContractorsController {
  constructor(private readonly contractors: ContractorsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a contractor',
    description:
      '`companyName` and `contactName` are required; `status` defaults to `active`, the lists to `[]`. ' +
      '`rating` (null until a rating source exists) and `completedJobs` (completed work orders assigned to it) are ' +
      'output only.',
  })
  @ApiCreate(ContractorResponse)
  async create(@TeamId() teamId: string, @Body() body: CreateContractorDto): Promise<{ data: ContractorResponse }> {
    return { data: await this.contractors.create(teamId, body) };
  }

  @Get()
  @ApiOperation({
    summary: 'List contractors',
    description: listDescription('company name, contact name, email or phone number', [
      enumFilter('status', CONTRACTOR_STATUSES),
      '`trade`: contractors with this trade among `trades` (case-insensitive, whole value).',
      '`postcode`: contractors covering it: one of their `coveragePostcodes` is a prefix of it, case and spaces ' +
        'ignored (`SW1A` covers `sw1a 1aa`).',
    ]),
  })
  @ApiPageResponse(ContractorResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: ListContractorsQuery): Promise<Page<ContractorResponse>> {
    return this.contractors.list(teamId, query);
  }

  @Get(':contractorId')
  @ApiOperation({ summary: 'Get a contractor' })
  @ApiParam({ name: 'contractorId', format: 'uuid', example: CONTRACTOR_EXAMPLE.id })
  @ApiGetOne(ContractorResponse)
  async get(@TeamId() teamId: string, @IdParam('contractorId') id: string): Promise<{ data: ContractorResponse }> {
    return { data: await this.contractors.get(teamId, id) };
  }

  @Put(':contractorId')
  @ApiOperation({
    summary: 'Update a contractor',
    description: updateDescription('`status` may change here (`active`, `inactive`, `on_holiday`).'),
  })
  @ApiParam({ name: 'contractorId', format: 'uuid', example: CONTRACTOR_EXAMPLE.id })
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
    description:
      '204. Refused with 409 (naming them) while work orders are assigned to the contractor: unassign it ' +
      '(`contractorId: null`) or delete those first. Afterwards an assignment to it is 400.',
  })
  @ApiParam({ name: 'contractorId', format: 'uuid', example: CONTRACTOR_EXAMPLE.id })
  @ApiDelete(ContractorResponse, {
    409: 'Contractor is referred to by 2 work orders (WO-41, WO-42); delete them or change their contractorId first',
  })
  async remove(@TeamId() teamId: string, @IdParam('contractorId') id: string): Promise<void> {
    await this.contractors.remove(teamId, id);
  }
}
