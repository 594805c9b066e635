import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiWrite, Authenticated, callerOf, TestKeysOnly, type AuthenticatedRequest } from '@app/common';
import { ResetSandboxDto } from './dto/reset-sandbox.dto.js';
import { SandboxResetResponse } from './dto/sandbox-reset.response.js';
import { SAMPLE_COUNTS } from './sample-portfolio.js';
import { LIVE_KEY_CANNOT_RESET, SandboxService } from './sandbox.service.js';

@ApiTags('Sandbox')
@Authenticated()
@Controller('sandbox')
export class SandboxController {
  constructor(private readonly sandbox: SandboxService) {}

  @Post('reset')
  @HttpCode(202)
  // A live key is refused by the key guard, before its query or body is validated (403, never a 400).
  @TestKeysOnly(LIVE_KEY_CANNOT_RESET)
  @ApiOperation({
    summary: 'Reset the sandbox (test keys only)',
    description:
      'Empties the sandbox of the test key (`ppk_test_…`) that calls it: its records, with their notes, ' +
      'attachments and history, and its imports. Its events feed, webhook endpoints and keys stay. With ' +
      '`{"sampleData": true}` it then fills the sandbox with a realistic sample portfolio, the same on every reset ' +
      `(${SAMPLE_COUNTS.units} units, ${SAMPLE_COUNTS.tenants} tenants, ${SAMPLE_COUNTS.landlords} landlords, ` +
      `${SAMPLE_COUNTS.contractors} contractors and ${SAMPLE_COUNTS.workOrders} work orders in every status, with ` +
      'notes and history), each record announced like a write of the key. Answered once the data is there. A live ' +
      'key is 403. Counted as one write. See docs/test-mode.md.',
  })
  @ApiWrite(SandboxResetResponse, 202, 'The sandbox is reset (and filled, with `sampleData`)', 400, 403, 413)
  async reset(
    @Req() request: AuthenticatedRequest,
    @Body() body: ResetSandboxDto,
  ): Promise<{ data: SandboxResetResponse }> {
    return { data: await this.sandbox.reset(callerOf(request), body.sampleData ?? false) };
  }
}
