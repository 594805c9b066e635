import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { pageOf, presentFields, RecordNotFoundError, type Page } from '@app/common';
import { TenantUnitsRepository } from '../tenants/tenant-units.repository.js';
import type { CreateUnitDto } from './dto/create-unit.dto.js';
import type { ListUnitsQuery } from './dto/list-units.query.js';
import { UnitResponse } from './dto/unit.response.js';
import type { UpdateUnitDto } from './dto/update-unit.dto.js';
import { ADDRESS_PARTS, composeFullAddress, type AddressParts } from './full-address.js';
import { Unit } from './unit.entity.js';
import { UnitsRepository } from './units.repository.js';

function withFullAddress(parts: AddressParts): AddressParts & Pick<Unit, 'fullAddress'> {
  return { ...parts, fullAddress: composeFullAddress(parts) };
}

@Injectable()
export class UnitsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly units: UnitsRepository,
    private readonly links: TenantUnitsRepository,
  ) {}

  async create(teamId: string, dto: CreateUnitDto): Promise<UnitResponse> {
    const id = randomUUID();
    const parts: AddressParts = {
      addressLine1: dto.addressLine1,
      addressLine2: dto.addressLine2 ?? null,
      city: dto.city,
      county: dto.county ?? null,
      country: dto.country,
      postcode: dto.postcode,
      area: dto.area ?? null,
    };
    await this.units.insert(teamId, { ...withFullAddress(parts), id } as Omit<Unit, 'teamId'>);
    return this.get(teamId, id);
  }

  async list(teamId: string, query: ListUnitsQuery): Promise<Page<UnitResponse>> {
    const [rows, total] = await this.units.list(teamId, query);
    return pageOf(
      rows.map((unit) => UnitResponse.from(unit, unit.links)),
      total,
      query,
    );
  }

  async get(teamId: string, id: string): Promise<UnitResponse> {
    const unit = await this.units.findOne(teamId, id);
    if (!unit) throw new RecordNotFoundError('Unit');
    const links = await this.links.tenantsOfUnits(teamId, [id]);
    return UnitResponse.from(unit, links.get(id) ?? []);
  }

  /** Merges the body into the stored parts and recomputes `fullAddress` from the result. */
  async update(teamId: string, id: string, dto: UpdateUnitDto): Promise<UnitResponse> {
    await this.db.transaction(async (manager) => {
      const stored = await this.units.findForUpdate(teamId, id, manager);
      if (!stored) throw new RecordNotFoundError('Unit');
      const parts: AddressParts = {
        addressLine1: stored.addressLine1,
        addressLine2: stored.addressLine2,
        city: stored.city,
        county: stored.county,
        country: stored.country,
        postcode: stored.postcode,
        area: stored.area,
        ...presentFields(dto, ADDRESS_PARTS),
      };
      await this.units.update(teamId, id, withFullAddress(parts), manager);
    });
    return this.get(teamId, id);
  }
}
