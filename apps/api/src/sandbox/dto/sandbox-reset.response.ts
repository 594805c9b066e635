import { ApiProperty } from '@nestjs/swagger';

/** How many records of each kind the sandbox holds after the reset (all 0 without `sampleData`). */
export class SandboxRecordCounts {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 4 })
  landlords!: number;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 6 })
  contractors!: number;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 24 })
  units!: number;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 36 })
  tenants!: number;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 48 })
  workOrders!: number;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 0, example: 48, description: 'Notes on the work orders' })
  workOrderNotes!: number;
}

export class SandboxResetResponse {
  @ApiProperty({
    format: 'uuid',
    description: 'The sandbox’s own team id: every sandbox record carries it (never the live team’s)',
    example: '7c1e5a3b-9d2f-4e6a-8b0c-2f4d6a8c0e1b',
  })
  teamId!: string;

  @ApiProperty({ description: 'Whether the sample portfolio was loaded', example: true })
  sampleData!: boolean;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-26T09:30:00.000Z' })
  resetAt!: string;

  @ApiProperty({ type: SandboxRecordCounts })
  records!: SandboxRecordCounts;
}
