import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Landlord } from './landlord.entity.js';
import { LandlordsController } from './landlords.controller.js';
import { LandlordsRepository } from './landlords.repository.js';
import { LandlordsService } from './landlords.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Landlord])],
  controllers: [LandlordsController],
  providers: [LandlordsService, LandlordsRepository],
  exports: [LandlordsRepository],
})
export class LandlordsModule {}
