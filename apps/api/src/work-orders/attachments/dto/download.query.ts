import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches } from 'class-validator';

/** A signed download URL's query: the expiry (Unix seconds) and the signature over it. */
export class DownloadQuery {
  @ApiProperty({ example: 1767225600 })
  @Type(() => Number)
  @IsInt({ message: 'expires must be an integer' })
  expires!: number;

  @ApiProperty({ example: '3q2-7w' })
  @IsString()
  @Matches(/^[\w-]{1,100}$/, { message: 'signature must be base64url' })
  signature!: string;
}
