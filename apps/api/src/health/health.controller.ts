import { Controller, Get, HttpException, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ErrorBody, Public } from '@app/common';

/** Longest wait for the database's answer before readiness reports it unavailable. */
const DATABASE_PING_TIMEOUT_MS = 2_000;

function isShuttingDown(error: unknown): boolean {
  if (!(error instanceof HttpException)) return false;
  const body = error.getResponse();
  return typeof body === 'object' && (body as { status?: unknown }).status === 'shutting_down';
}

/**
 * Probes for orchestrators: no API key, no rate limit, outside `/v1`. Terminus runs the checks (and logs a
 * failed one with its cause); the bodies stay the service's own: `{status}` when up, `{error}` when not.
 */
@ApiTags('Health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness: the process is serving' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } } })
  live(): { status: 'ok' } {
    // Answering at all is the liveness signal; the database's state belongs to readiness.
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ready' } } } })
  @ApiServiceUnavailableResponse({ type: ErrorBody })
  async ready(): Promise<{ status: 'ready' }> {
    try {
      await this.health.check([() => this.database.pingCheck('database').withTimeout(DATABASE_PING_TIMEOUT_MS)]);
    } catch (error) {
      // While the app closes, Terminus reports `shutting_down` so a balancer stops sending traffic first.
      throw new ServiceUnavailableException(isShuttingDown(error) ? 'Shutting down' : 'Database unavailable');
    }
    return { status: 'ready' };
  }
}
