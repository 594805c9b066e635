import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** What a key may do: every operation, or reads only (writes answer 403). */
export type KeyAccess = 'read_write' | 'read_only';

/** Who is calling: the team and the API key a request was authenticated with. */
export interface Caller {
  teamId: string;
  apiKeyId: string;
  /** The key's name as its team gave it (null: unnamed); shown as who wrote a note or a change, never a secret. */
  apiKeyName: string | null;
  access: KeyAccess;
  /** When the key stops working (epoch ms): its expiry, or the end of its grace after a roll; null: never. */
  expiresAt: number | null;
  /** A test key (`ppk_test_…`): `teamId` is the sandbox of a live team (CONTRACT "Test mode (sandbox)"). */
  testMode: boolean;
}

export interface AuthenticatedRequest extends Request {
  caller?: Caller;
  /** The request gate looked the bearer key up and it is unknown, revoked or expired. */
  keyRefused?: boolean;
  /** The caller is over a rate limit: the request is answered 429 (headers already set, nothing counted). */
  rateLimited?: boolean;
  /** The client address failed to authenticate too often: its keys are not looked up (429, headers set). */
  authThrottled?: boolean;
}

/**
 * Who made a change, as a note's `createdBy` and a history entry's `actor` say it (CONTRACT: notes, and
 * "History of every record"): an API key (never its secret), an import, or the service itself.
 */
export type Actor =
  { type: 'api_key'; id: string; name: string | null } | { type: 'import'; id: string } | { type: 'system' };

/** The API key behind a request, as an `Actor`. */
export function actorOf(caller: Caller): Actor {
  return { type: 'api_key', id: caller.apiKeyId, name: caller.apiKeyName };
}

export function callerOf(request: AuthenticatedRequest): Caller {
  if (!request.caller) throw new Error('callerOf() on a route that is not authenticated');
  return request.caller;
}

/** The team of the API key that made the request; every service call is scoped by it. */
export const TeamId = createParamDecorator(
  (_: unknown, context: ExecutionContext): string =>
    callerOf(context.switchToHttp().getRequest<AuthenticatedRequest>()).teamId,
);

/** Who makes the request, as an `Actor` (the API key): a note's `createdBy`. */
export const RequestActor = createParamDecorator((_: unknown, context: ExecutionContext): Actor =>
  actorOf(callerOf(context.switchToHttp().getRequest<AuthenticatedRequest>())),
);
