import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Helmet's headers for the HTML the service serves: a Content-Security-Policy that allows this origin only,
 * `X-Frame-Options: DENY` (and `frame-ancestors 'none'`), `X-Content-Type-Options: nosniff`, `Referrer-Policy:
 * no-referrer`, `Cross-Origin-Opener-Policy: same-origin` and the rest of Helmet's defaults.
 *
 * - `dashboard`: scripts and styles from this origin only — the pages have no inline script or style.
 * - `docs` (Swagger UI): its scripts are files of this origin too, but its page and components set inline
 *   styles, so styles also allow 'unsafe-inline'; its images include data: URIs.
 *
 * `upgrade-insecure-requests` is left out: the service is often reached over plain http (localhost, behind a
 * TLS-terminating proxy), where it would send the browser to an https port that does not answer.
 */
export function securityHeaders(kind: 'dashboard' | 'docs'): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': kind === 'docs' ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'upgrade-insecure-requests': null,
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
}
