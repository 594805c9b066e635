import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenanciesRepository } from './tenancies.repository.js';
import { Tenancy } from './tenancy.entity.js';

/** The links between tenants and units, shared by both resources without either importing the other. */
@Module({
  imports: [TypeOrmModule.forFeature([Tenancy])],
  providers: [TenanciesRepository],
  exports: [TenanciesRepository],
})
export class TenanciesModule {}
