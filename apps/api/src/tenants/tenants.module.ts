import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WorkOrdersModule } from '../work-orders/index.js';
import { TenanciesModule } from '../tenancies/index.js';
import { UnitsModule } from '../units/index.js';
import { Tenant } from './tenant.entity.js';
import { TenantsController } from './tenants.controller.js';
import { TenantsRepository } from './tenants.repository.js';
import { TenantsService } from './tenants.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Tenant]), WorkOrdersModule, TenanciesModule, UnitsModule],
  controllers: [TenantsController],
  providers: [TenantsService, TenantsRepository],
  exports: [TenantsRepository],
})
export class TenantsModule {}
