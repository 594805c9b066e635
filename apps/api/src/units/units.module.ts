import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Unit } from './unit.entity.js';
import { UnitsController } from './units.controller.js';
import { UnitsRepository } from './units.repository.js';
import { UnitsService } from './units.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Unit])],
  controllers: [UnitsController],
  providers: [UnitsService, UnitsRepository],
  exports: [UnitsRepository],
})
export class UnitsModule {}
