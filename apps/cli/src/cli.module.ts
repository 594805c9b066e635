import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/common';
import { dataSourceOptions } from '@app/database';

@Module({})
export class CliModule {
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: CliModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(databaseUrl, { poolSize: 2, statementTimeoutMs: 30_000 }),
          autoLoadEntities: true,
        }),
        AuthModule,
      ],
    };
  }
}
