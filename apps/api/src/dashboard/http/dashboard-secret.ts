import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { AppConfig, serverSecret } from '@app/common';

/**
 * DASHBOARD_SECRET, loaded once for the dashboard: it signs the forms shown before sign-in (`FormTokens`) and,
 * through a key of its own, seals what a page shows once (`ShownOnce`). The same on every instance.
 */
@Injectable()
export class DashboardSecret {
  readonly value: Buffer;

  constructor(config: AppConfig) {
    this.value = serverSecret(
      config,
      'DASHBOARD_SECRET',
      'it signs the dashboard’s forms and seals the keys and secrets its pages show once',
    );
  }

  /** A key for one use only (`use` names it), derived from the secret: no two uses ever share a key. */
  keyFor(use: string): Buffer {
    return createHmac('sha256', this.value).update(use).digest();
  }
}
