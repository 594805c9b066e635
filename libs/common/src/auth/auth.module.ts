import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsService } from '../accounts/accounts.service.js';
import { PasswordHasher } from '../accounts/password-hasher.js';
import { ApiKeyCache } from './api-key-cache.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeysService } from './api-keys.service.js';
import { Team } from './team.entity.js';
import { UsageRecorder } from './usage-recorder.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Team, ApiKey])],
  providers: [ApiKeysService, ApiKeyCache, AccountsService, PasswordHasher, UsageRecorder],
  exports: [ApiKeysService, AccountsService, PasswordHasher, UsageRecorder],
})
export class AuthModule {}
