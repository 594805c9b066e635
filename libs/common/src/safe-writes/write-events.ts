import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, Optional } from '@nestjs/common';
import type { Observable } from 'rxjs';

/**
 * The app's interceptor that records a write's event in the write's transaction (the outbox's writer,
 * apps/api/src/events): provided under this token, so the write decorators here name no feature.
 */
export const WRITE_EVENTS = Symbol('WRITE_EVENTS');

/**
 * Put on every keyed write (inside `SafeWritesInterceptor`) by the decorators that document its Idempotency-Key:
 * hands the call to the interceptor provided as `WRITE_EVENTS`, or passes it on when the app provides none.
 */
@Injectable()
export class WriteEventsInterceptor implements NestInterceptor {
  constructor(@Optional() @Inject(WRITE_EVENTS) private readonly events?: NestInterceptor) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> | Promise<Observable<unknown>> {
    return this.events ? this.events.intercept(context, next) : next.handle();
  }
}
