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
import { CreateUnitDto } from './dto/create-unit.dto.js';
import { ListUnitsQuery } from './dto/list-units.query.js';
import { UnitResponse } from './dto/unit.response.js';
import { UpdateUnitDto } from './dto/update-unit.dto.js';
import { UnitsService } from './units.service.js';
import { UNIT_EXAMPLE } from './unit.example.js';

@ApiTags('Units')
@Authenticated()
@ConditionalResource({ source: UnitsService, idParam: 'unitId', name: 'Unit' })
@Controller('units')
export class UnitsController {
  constructor(private readonly units: UnitsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a unit',
    description:
      '`addressLine1`, `city`, `postcode` and `country` are required; `fullAddress` is composed from the non-empty ' +
      'parts in the order addressLine1, addressLine2, area, city, county, postcode, country, joined by ", ".',
  })
  @ApiCreate(UnitResponse)
  async create(@TeamId() teamId: string, @Body() body: CreateUnitDto): Promise<{ data: UnitResponse }> {
    return { data: await this.units.create(teamId, body) };
  }

  @Get()
  @ApiOperation({ summary: 'List units', description: listDescription('`fullAddress`') })
  @ApiPageResponse(UnitResponse)
  @ApiErrors(400)
  list(@TeamId() teamId: string, @Query() query: ListUnitsQuery): Promise<Page<UnitResponse>> {
    return this.units.list(teamId, query);
  }

  @Get(':unitId')
  @ApiOperation({ summary: 'Get a unit' })
  @ApiParam({ name: 'unitId', format: 'uuid', example: UNIT_EXAMPLE.id })
  @ApiGetOne(UnitResponse)
  async get(@TeamId() teamId: string, @IdParam('unitId') id: string): Promise<{ data: UnitResponse }> {
    return { data: await this.units.get(teamId, id) };
  }

  @Put(':unitId')
  @ApiOperation({
    summary: 'Update a unit',
    description: updateDescription('`fullAddress` is recomputed from the parts after the change.'),
  })
  @ApiParam({ name: 'unitId', format: 'uuid', example: UNIT_EXAMPLE.id })
  @ApiUpdate(UnitResponse)
  async update(
    @TeamId() teamId: string,
    @IdParam('unitId') id: string,
    @Body() body: UpdateUnitDto,
  ): Promise<{ data: UnitResponse }> {
    return { data: await this.units.update(teamId, id, body) };
  }

  @Delete(':unitId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a unit',
    description:
      '204. Refused with 409 (naming them) while work orders refer to the unit: delete those or move them to ' +
      'another unit first. Its tenant links go with it; afterwards a link to it is 400.',
  })
  @ApiParam({ name: 'unitId', format: 'uuid', example: UNIT_EXAMPLE.id })
  @ApiDelete(UnitResponse, {
    409: 'Unit is referred to by 2 work orders (WO-41, WO-42); delete them or change their unitId first',
  })
  async remove(@TeamId() teamId: string, @IdParam('unitId') id: string): Promise<void> {
    await this.units.remove(teamId, id);
  }
}
