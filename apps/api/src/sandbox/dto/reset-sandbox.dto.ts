import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { IsOmittable } from '@app/common';

/** The body of `POST /v1/sandbox/reset`: `{}` or `{"sampleData": true}`. */
export class ResetSandboxDto {
  /** `true`: after emptying the sandbox, fill it with the sample portfolio before answering. */
  @ApiPropertyOptional({ type: Boolean, default: false, example: true })
  @IsBoolean()
  // Omitted is `false`; `null` is no boolean (400), not a reset without sample data.
  @IsOmittable()
  sampleData?: boolean;
}
