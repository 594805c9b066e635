import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches } from 'class-validator';

/**
 * A signed download URL's query: the expiry (Unix seconds) and the signature over it. No examples: a URL is only
 * ever valid as the API signed it, so Swagger UI leaves the fields for the `downloadUrl`'s values to be pasted.
 */
export class DownloadQuery {
  @ApiProperty({ description: 'The `expires` of the attachment’s `downloadUrl` (Unix seconds)' })
  @Type(() => Number)
  @IsInt({ message: 'expires must be an integer' })
  expires!: number;

  @ApiProperty({ description: 'The `signature` of the attachment’s `downloadUrl`' })
  @IsString()
  @Matches(/^[\w-]{1,100}$/, { message: 'signature must be base64url' })
  signature!: string;
}
