import type { Request } from 'express';
import { DASHBOARD } from '../views/layout.js';

/** A path of this dashboard (and its query), in the characters a URL path and query may hold unescaped. */
const DASHBOARD_PATH = new RegExp(`^${DASHBOARD}(?:/[\\w\\-.~%!$&'()*+,;=:@/]*)?(?:\\?[\\w\\-.~%!$&'()*+,;=:@/?]*)?$`);
/** Where signing in lands anyway, and the pages that sign in, up or out: never a way back. */
const NOT_RETURNED_TO = new RegExp(`^${DASHBOARD}(?:/?|/keys/?|/sign-(?:in|up|out)(?:[/?].*)?)$`);

/** Any origin will do: only how a browser would resolve the path against it matters. */
const SOME_ORIGIN = 'http://dashboard.invalid';

/**
 * Where to send a person once signed in: `value` when it is a page of this dashboard (a path on this very origin,
 * never another site, `//host` or a backslash a browser would read as one), else undefined. It must read as a
 * browser would resolve it (no `.` or `..` segment, spelled out or as `%2e`, to climb out of the dashboard) and
 * spell its path plainly (no percent-escapes there: no dashboard page needs one). Sign-in, sign-up and sign-out, and
 * the keys page every sign-in lands on anyway, are no way back.
 */
export function returnPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 1024 || value.includes('//')) return undefined;
  if (!DASHBOARD_PATH.test(value) || NOT_RETURNED_TO.test(value)) return undefined;
  const [path] = value.split('?', 1);
  if (path.includes('%')) return undefined;
  const resolved = new URL(value, SOME_ORIGIN);
  return `${resolved.pathname}${resolved.search}` === value ? value : undefined;
}

/** The page a request without a session asked for, to return to after sign-in: GET and HEAD only (a POST's form is gone). */
export function returnPathOf(request: Request): string | undefined {
  return request.method === 'GET' || request.method === 'HEAD' ? returnPath(request.originalUrl) : undefined;
}

/** The sign-in page's URL, saying why (`reason`) and where to go back to (`next`) when there is cause. */
export function signInUrl(reason?: string, next?: string): string {
  const query = new URLSearchParams();
  if (reason) query.set('reason', reason);
  if (next) query.set('next', next);
  const search = query.toString();
  return `${DASHBOARD}/sign-in${search ? `?${search}` : ''}`;
}
