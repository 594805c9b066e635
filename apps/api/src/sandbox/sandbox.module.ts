import { Module } from '@nestjs/common';
import { SandboxController } from './sandbox.controller.js';
import { SandboxRepository } from './sandbox.repository.js';
import { SandboxService } from './sandbox.service.js';

/** Test mode's reset (`POST /v1/sandbox/reset`) and sample portfolio (docs/test-mode.md). */
@Module({
  controllers: [SandboxController],
  providers: [SandboxService, SandboxRepository],
  exports: [SandboxService],
})
export class SandboxModule {}
