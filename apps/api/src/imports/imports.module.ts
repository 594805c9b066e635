import { Module } from '@nestjs/common';
import { ImportRowWriter } from './import-row-writer.js';
import { ImportRunner } from './import-runner.js';
import { ImportsController } from './imports.controller.js';
import { ImportsRepository } from './imports.repository.js';
import { ImportsService } from './imports.service.js';
import { SpoolCleanup } from './spool-cleanup.js';

/** Imports (`/v1/imports`) and the job that runs them (docs/imports.md). */
@Module({
  controllers: [ImportsController],
  providers: [ImportsService, ImportsRepository, ImportRowWriter, ImportRunner, SpoolCleanup],
  exports: [ImportsService, ImportRunner],
})
export class ImportsModule {}
