import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Unit } from '../units/unit.entity.js';
import { TenantUnit } from './tenant-unit.entity.js';
import { TenantUnitsRepository } from './tenant-units.repository.js';
import { Tenant } from './tenant.entity.js';

/** The links between tenants and units, shared by both resources without a module cycle. */
@Module({
  imports: [TypeOrmModule.forFeature([TenantUnit, Tenant, Unit])],
  providers: [TenantUnitsRepository],
  exports: [TenantUnitsRepository],
})
export class TenantUnitsModule {}
