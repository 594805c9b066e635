import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { IMPORT_EXAMPLE_RESOURCE } from '../import-example.js';
import { IMPORT_RESOURCES, type ImportResource } from '../import-resources.js';

/** `resource` and `dryRun` of `POST /v1/imports`. */
export class CreateImportQuery {
  /**
   * The resource the rows create or update. Swagger UI's select starts on the list's first value (the document keeps
   * no example beside the enum's `$ref`), so the POST's pre-filled CSV (import-example.ts) is for that resource.
   */
  @ApiProperty({ enum: IMPORT_RESOURCES, enumName: 'ImportResource', example: IMPORT_EXAMPLE_RESOURCE })
  @IsIn(IMPORT_RESOURCES)
  resource!: ImportResource;

  /** `true`: validate every row and write nothing (the counts say what it would do). */
  @ApiPropertyOptional({ type: Boolean, default: false })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  dryRun: boolean = false;
}

/** `resource` of the import template. */
export class ImportTemplateQuery {
  @ApiProperty({ enum: IMPORT_RESOURCES, enumName: 'ImportResource', example: 'units' })
  @IsIn(IMPORT_RESOURCES)
  resource!: ImportResource;
}
