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
  listDescription,
  updateDescription,
  TeamId,
  type Page,
} from '@app/common';
import { CreateTenantDto } from './dto/create-tenant.dto.js';
import { ListTenantsQuery } from './dto/list-tenants.query.js';
import { TenantResponse } from './dto/tenant.response.js';
import { UpdateTenantDto } from './dto/update-tenant.dto.js';
import { TenantsService } from './tenants.service.js';
import { TENANT_EXAMPLE } from './tenant.example.js';

@ApiTags('Tenants')
@Authenticated()
@ConditionalResource({ source: TenantsService, idParam: 'tenantId', name: 'Tenant' })
@Controller('tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a tenant',
    description:
      '`firstName` and `lastName` are required. `unitIds` links the tenant to units of the team: create a unit ' +
      'with `POST /v1/units` (or find one with `GET /v1/units`) and put its `id` there; an id that names no unit ' +
      'of the team is 400. The links come back as `tenantUnits`, oldest first.',
  })
  @ApiCreate(TenantResponse)
  async create(@TeamId() teamId: string, @Body() body: CreateTenantDto): Promise<{ data: TenantResponse }> {
    return { data: await this.tenants.create(teamId, body) };
  }

  @Get()
  @ApiOperation({
    summary: 'List tenants',
    description: listDescription(
      'first name, last name, email, phone number or the `fullAddress` of a unit the tenant is linked to',
    ),
  })
  @ApiPageResponse(TenantResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: ListTenantsQuery): Promise<Page<TenantResponse>> {
    return this.tenants.list(teamId, query);
  }

  @Get(':tenantId')
  @ApiOperation({ summary: 'Get a tenant' })
  @ApiParam({ name: 'tenantId', format: 'uuid', example: TENANT_EXAMPLE.id })
  @ApiGetOne(TenantResponse)
  async get(@TeamId() teamId: string, @IdParam('tenantId') id: string): Promise<{ data: TenantResponse }> {
    return { data: await this.tenants.get(teamId, id) };
  }

  @Put(':tenantId')
  @ApiOperation({
    summary: 'Update a tenant',
    description: updateDescription(
      '`unitIds`, when sent, replaces the tenant’s links (`[]` removes them all); a link to a unit that stays ' +
        'keeps its id. Unit ids come from `POST /v1/units` or `GET /v1/units`.',
    ),
  })
  @ApiParam({ name: 'tenantId', format: 'uuid', example: TENANT_EXAMPLE.id })
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
    description:
      '204. Refused with 409 (naming them) while work orders refer to the tenant: clear their `tenantId` or ' +
      'delete them first. Its unit links go with it; afterwards a link to it is 400.',
  })
  @ApiParam({ name: 'tenantId', format: 'uuid', example: TENANT_EXAMPLE.id })
  @ApiDelete(TenantResponse, {
    409: 'Tenant is referred to by 2 work orders (WO-41, WO-42); delete them or change their tenantId first',
  })
  async remove(@TeamId() teamId: string, @IdParam('tenantId') id: string): Promise<void> {
    await this.tenants.remove(teamId, id);
  }
}
