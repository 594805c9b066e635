import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig, Clock, SystemClock } from '@app/common';
import { dataSourceOptions } from '@app/database';
import { ApiKeysModule } from '../../api/src/api-keys/index.js';
import { AccountsModule } from '../../api/src/dashboard/accounts/index.js';

@Global()
@Module({})
export class CliModule {
  static forRoot(databaseUrl: string, config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(databaseUrl, {
            poolSize: 2,
            statementTimeoutMs: 30_000,
            pooler: config.DB_POOLER,
            sessionUrl: config.DATABASE_DIRECT_URL,
          }),
          autoLoadEntities: true,
        }),
        ApiKeysModule,
        AccountsModule,
      ],
      providers: [
        { provide: Clock, useValue: new SystemClock() },
        { provide: AppConfig, useValue: config },
      ],
      exports: [Clock, AppConfig],
    };
  }
}
