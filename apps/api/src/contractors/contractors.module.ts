import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WorkOrdersModule } from '../work-orders/index.js';
import { Contractor } from './contractor.entity.js';
import { ContractorsController } from './contractors.controller.js';
import { ContractorsRepository } from './contractors.repository.js';
import { ContractorsService } from './contractors.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Contractor]), WorkOrdersModule],
  controllers: [ContractorsController],
  providers: [ContractorsService, ContractorsRepository],
  exports: [ContractorsRepository],
})
export class ContractorsModule {}
