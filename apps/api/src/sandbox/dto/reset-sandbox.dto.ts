import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

/** The body of `POST /v1/sandbox/reset`: `{}` or `{"sampleData": true}`. */
export class ResetSandboxDto {
  /** `true`: after emptying the sandbox, fill it with the sample portfolio before answering. */
  @ApiPropertyOptional({ type: Boolean, default: false, example: true })
  @IsOptional()
  @IsBoolean()
  sampleData?: boolean;
}
