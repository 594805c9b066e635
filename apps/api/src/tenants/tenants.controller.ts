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
import { CreateTenantDto } from './dto/create-tenant.dto.js';
import { ListTenantsQuery } from './dto/list-tenants.query.js';
import { TenantResponse } from './dto/tenant.response.js';
import { UpdateTenantDto } from './dto/update-tenant.dto.js';
import { TenantsService } from './tenants.service.js';

@ApiTags('Tenants')
@Authenticated()
@ConditionalResource({ source: TenantsService, idParam: 'tenantId', name: 'Tenant' })
@Controller('tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a tenant', description: '`unitIds` links the tenant to units of the team.' })
  @ApiCreate(TenantResponse)
  async create(@TeamId() teamId: string, @Body() body: CreateTenantDto): Promise<{ data: TenantResponse }> {
    return { data: await this.tenants.create(teamId, body) };
  }

  @Get()
  @ApiOperation({
    summary: 'List tenants',
    description:
      'Newest first; `search` matches within name, email, phone number and linked units\u2019 `fullAddress`.',
  })
  @ApiPageResponse(TenantResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: ListTenantsQuery): Promise<Page<TenantResponse>> {
    return this.tenants.list(teamId, query);
  }

  @Get(':tenantId')
  @ApiOperation({ summary: 'Get a tenant' })
  @ApiParam({ name: 'tenantId', format: 'uuid' })
  @ApiGetOne(TenantResponse)
  async get(@TeamId() teamId: string, @IdParam('tenantId') id: string): Promise<{ data: TenantResponse }> {
    return { data: await this.tenants.get(teamId, id) };
  }

  @Put(':tenantId')
  @ApiOperation({
    summary: 'Update a tenant',
    description:
      'Partial: omitted fields keep their value, `null` clears a nullable one; `unitIds`, when present, replaces the links.',
  })
  @ApiParam({ name: 'tenantId', format: 'uuid' })
  @ApiUpdate(TenantResponse)
  async update(
    @TeamId() teamId: string,
    @IdParam('tenantId') id: string,
    @Body() body: UpdateTenantDto,
  ): Promise<{ data: TenantResponse }> {
    return { data: await this.tenants.update(teamId, id, body) };
  }

  @Delete(':tenantId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a tenant',
    description: 'Refused with 409 while work orders refer to the tenant; its unit links go with it.',
  })
  @ApiParam({ name: 'tenantId', format: 'uuid' })
  @ApiDelete()
  async remove(@TeamId() teamId: string, @IdParam('tenantId') id: string): Promise<void> {
    await this.tenants.remove(teamId, id);
  }
}
