import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyCache } from './api-key-cache.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeysService } from './api-keys.service.js';
import { Team } from './team.entity.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Team, ApiKey])],
  providers: [ApiKeysService, ApiKeyCache],
  exports: [ApiKeysService],
})
export class AuthModule {}
