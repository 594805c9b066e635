import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WorkOrdersModule } from '../work-orders/index.js';
import { Unit } from './unit.entity.js';
import { UnitsController } from './units.controller.js';
import { UnitsRepository } from './units.repository.js';
import { UnitsService } from './units.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Unit]), WorkOrdersModule],
  controllers: [UnitsController],
  providers: [UnitsService, UnitsRepository],
  exports: [UnitsRepository],
})
export class UnitsModule {}
