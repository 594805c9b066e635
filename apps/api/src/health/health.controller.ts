import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ErrorBody, Public } from '@app/common';

/** Probes for orchestrators: no API key, no rate limit, outside `/v1`. */
@ApiTags('Health')
@Public()
@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @Get()
  @ApiOperation({ summary: 'Liveness: the process is serving' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ready' } } } })
  @ApiServiceUnavailableResponse({ type: ErrorBody })
  async ready(): Promise<{ status: 'ready' }> {
    try {
      await this.db.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException('Database unavailable');
    }
    return { status: 'ready' };
  }
}
