import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookiesOf, DashboardCookies } from './cookies.js';
import { DashboardSecret } from './dashboard-secret.js';

/**
 * What a POST made that its next page shows once, by slot: a new API key, a webhook endpoint's new secret, what a
 * sandbox reset did.
 */
export type ShownOnceSlot = 'new_key' | 'new_secret' | 'sandbox_result';

/** Long enough for the redirect that follows the POST, short enough not to outlive a forgotten tab by much. */
const MAX_AGE_MS = 5 * 60 * 1000;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A secret made by a POST, on its way to the page the POST redirects to (post/redirect/get): reloading that page, or
 * going back to it, makes no second one and shows this one no more. It travels in a cookie of its own per slot
 * (`ppa_new_key`, `ppa_new_secret`), encrypted and authenticated (AES-256-GCM, with a key derived from
 * DASHBOARD_SECRET) and bound to the session and its mode (their form token is the additional data, with the slot),
 * so it reads as nothing anywhere else; the page that shows it clears it.
 */
@Injectable()
export class ShownOnce {
  private readonly key: Buffer;

  constructor(
    secret: DashboardSecret,
    private readonly cookies: DashboardCookies,
  ) {
    this.key = secret.keyFor('dashboard shown-once cookies');
  }

  /** Keeps `value` for the next page of the session whose form token is `sessionToken`. */
  keep(response: Response, slot: ShownOnceSlot, sessionToken: string, value: object): void {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(`${slot}:${sessionToken}`));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    const cookie = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    response.cookie(this.cookies.named(`ppa_${slot}`), cookie, { ...this.cookies.options, maxAge: MAX_AGE_MS });
  }

  /** The value kept in `slot` for this session, once: the cookie is cleared whatever it held. */
  take<T extends object>(
    request: Request,
    response: Response,
    slot: ShownOnceSlot,
    sessionToken: string,
  ): T | undefined {
    const name = this.cookies.named(`ppa_${slot}`);
    const cookie = cookiesOf(request).get(name);
    if (cookie === undefined) return undefined;
    response.clearCookie(name, this.cookies.options);
    const bytes = Buffer.from(cookie, 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES))
        .setAAD(Buffer.from(`${slot}:${sessionToken}`))
        .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      return JSON.parse(text.toString('utf8')) as T;
    } catch {
      // Another session's, another mode's or another slot's, or tampered with: nothing to show.
      return undefined;
    }
  }
}
