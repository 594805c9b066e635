import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig, Clock, serverSecret } from '@app/common';

/** How long a download URL works. */
export const DOWNLOAD_URL_TTL_MS = 15 * 60_000;

/** A download URL's parts: the path under the API's prefix and its query. */
export interface SignedDownload {
  path: string;
  expires: number;
  signature: string;
  expiresAt: string;
}

/**
 * Download URLs that need no key (CONTRACT "Attachments"): HMAC-SHA256 over the team, the attachment and the
 * expiry (Unix seconds) with ATTACHMENT_URL_SECRET. A changed byte or a past expiry is refused; a deleted
 * attachment has no row to answer from.
 */
@Injectable()
export class DownloadUrls {
  private readonly secret: Buffer;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.secret = serverSecret(config, 'ATTACHMENT_URL_SECRET', 'it signs attachments’ download URLs');
  }

  private mac(teamId: string, id: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${teamId}:${id}:${expires}`).digest('base64url');
  }

  sign(teamId: string, id: string): SignedDownload {
    // Rounded up to the second: the URL works for at least the full 15 minutes, and `expiresAt` is its expiry.
    const expires = Math.ceil((this.clock.now() + DOWNLOAD_URL_TTL_MS) / 1000);
    return {
      path: `attachment-downloads/${teamId}/${id}`,
      expires,
      signature: this.mac(teamId, id, expires),
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** True when the signature is the server's for these values and the expiry has not passed. */
  verify(teamId: string, id: string, expires: number, signature: string): boolean {
    const expected = Buffer.from(this.mac(teamId, id, expires));
    const given = Buffer.from(signature);
    const genuine = expected.length === given.length && timingSafeEqual(expected, given);
    return genuine && expires * 1000 > this.clock.now();
  }
}
