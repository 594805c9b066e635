import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsService } from '../accounts/accounts.service.js';
import { ApiKeyCache } from './api-key-cache.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeysService } from './api-keys.service.js';
import { Team } from './team.entity.js';
import { UsageRecorder } from './usage-recorder.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Team, ApiKey])],
  providers: [ApiKeysService, ApiKeyCache, AccountsService, UsageRecorder],
  exports: [ApiKeysService, AccountsService, UsageRecorder],
})
export class AuthModule {}
