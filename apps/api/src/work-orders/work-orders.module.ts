import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContractorsModule } from '../contractors/contractors.module.js';
import { TenantsModule } from '../tenants/tenants.module.js';
import { UnitsModule } from '../units/units.module.js';
import { WorkOrder } from './work-order.entity.js';
import { WorkOrdersController } from './work-orders.controller.js';
import { WorkOrdersRepository } from './work-orders.repository.js';
import { WorkOrdersService } from './work-orders.service.js';

@Module({
  // The linked resources' repositories check that unitId, tenantId and contractorId are the team's own.
  imports: [TypeOrmModule.forFeature([WorkOrder]), UnitsModule, TenantsModule, ContractorsModule],
  controllers: [WorkOrdersController],
  providers: [WorkOrdersService, WorkOrdersRepository],
})
export class WorkOrdersModule {}
