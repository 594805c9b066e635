import { SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { PerRoute } from '../http/route-metadata.js';

export const IS_PUBLIC = 'auth:public';

/** Opens a route to callers without an API key (health checks). Everything else needs one. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** Per route: whether it is `@Public()` (on the handler or its controller), read once per route. */
export const publicRoutes = (reflector: Reflector): PerRoute<boolean> =>
  new PerRoute((context) =>
    Boolean(reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])),
  );
