import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UnitsModule } from '../units/units.module.js';
import { TenantUnitsModule } from './tenant-units.module.js';
import { Tenant } from './tenant.entity.js';
import { TenantsController } from './tenants.controller.js';
import { TenantsRepository } from './tenants.repository.js';
import { TenantsService } from './tenants.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Tenant]), TenantUnitsModule, UnitsModule],
  controllers: [TenantsController],
  providers: [TenantsService, TenantsRepository],
  exports: [TenantsRepository],
})
export class TenantsModule {}
