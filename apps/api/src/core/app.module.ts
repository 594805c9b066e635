import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  AllExceptionsFilter,
  ApiKeyGuard,
  DeclaredQueryGuard,
  AppConfig,
  Clock,
  RateLimitModule,
  RateLimitStoreModule,
  SafeWritesModule,
  SystemClock,
} from '@app/common';
import { dataSourceOptions } from '@app/database';
import { ApiKeysModule } from '../api-keys/index.js';
import { DashboardModule } from '../dashboard/index.js';
import { EventsModule } from '../events/index.js';
import { WebhooksModule } from '../webhooks/index.js';
import { ImportsModule } from '../imports/index.js';
import { SandboxModule } from '../sandbox/index.js';
import { DiscoveryModule } from '../discovery/index.js';
import { HealthModule } from '../health/index.js';
import { ExportsModule } from '../exports/index.js';
import { HistoryModule } from '../history/index.js';
import { RESOURCES } from '../resources.js';
import { MetricsModule } from '../metrics/index.js';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  /** The source of "now" (rate-limit windows, timestamps); tests pass a `ManualClock`. Default: the system clock. */
  clock?: Clock;
}

@Global()
@Module({})
class CoreModule {
  static forRoot(config: AppConfig, clock: Clock): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useValue: clock },
      ],
      exports: [AppConfig, Clock],
    };
  }
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, clock = new SystemClock() }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, clock),
        TypeOrmModule.forRoot({
          ...dataSourceOptions(databaseUrl, {
            poolSize: config.DB_POOL_SIZE,
            statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
            pooler: config.DB_POOLER,
            sessionUrl: config.DATABASE_DIRECT_URL,
          }),
          autoLoadEntities: true,
        }),
        ApiKeysModule,
        RateLimitStoreModule,
        RateLimitModule,
        SafeWritesModule,
        HealthModule,
        DiscoveryModule,
        DashboardModule,
        ...(config.METRICS_ENABLED ? [MetricsModule] : []),
        ...RESOURCES.map((resource) => resource.module),
        // Each resource's GET …/{id}/history, derived from the same list.
        HistoryModule.forResources(RESOURCES.map((resource) => resource.module)),
        // Each collection's list as CSV (Accept: text/csv), and every resource's CSV columns, from the same list.
        ExportsModule.forResources(RESOURCES),
        EventsModule,
        WebhooksModule,
        ImportsModule,
        SandboxModule,
      ],
      providers: [
        // The request gate (configure-app) identified and counted the caller; the guard refuses the rest with 401.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        // Then: an operation that declares no query parameters refuses any (400), before any other validation.
        { provide: APP_GUARD, useClass: DeclaredQueryGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
