import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CallerLookup, RequestUsage, Transactions } from '@app/common';
import { ApiKeyCache } from './api-key-cache.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';
import { Team } from './team.entity.js';
import { UsageRecorder } from './usage-recorder.js';
import { UsageRepository } from './usage.repository.js';

/**
 * Teams, their API keys (the cache, access, expiry, rolling) and the keys' usage. Global: the request gate and
 * `ApiKeyGuard` (libs/common) find callers through `CallerLookup` and count requests through `RequestUsage`.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Team, ApiKey])],
  providers: [
    ApiKeysService,
    ApiKeysRepository,
    ApiKeyCache,
    UsageRecorder,
    UsageRepository,
    Transactions,
    { provide: CallerLookup, useExisting: ApiKeysService },
    { provide: RequestUsage, useExisting: UsageRecorder },
  ],
  exports: [ApiKeysService, UsageRecorder, CallerLookup, RequestUsage],
})
export class ApiKeysModule {}
