import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  AllExceptionsFilter,
  ApiKeyGuard,
  AppConfig,
  AuthModule,
  Clock,
  RateLimitGuard,
  RateLimitModule,
  RateLimitStoreModule,
  SafeWritesModule,
  SystemClock,
} from '@app/common';
import { dataSourceOptions } from '@app/database';
import { HealthModule } from './health/health.module.js';
import { RESOURCES } from './resources.js';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
}

@Global()
@Module({})
class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useClass: SystemClock },
      ],
      exports: [AppConfig, Clock],
    };
  }
}

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config),
        TypeOrmModule.forRoot({
          ...dataSourceOptions(databaseUrl, {
            poolSize: config.DB_POOL_SIZE,
            statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
          }),
          autoLoadEntities: true,
        }),
        AuthModule,
        RateLimitStoreModule,
        RateLimitModule,
        SafeWritesModule,
        HealthModule,
        ...RESOURCES.map((resource) => resource.module),
      ],
      providers: [
        // Guards run in this order: the key is checked before anything is counted or validated.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
