import type { Response } from 'express';
import type { StoredAnswer } from './idempotency.store.js';

/**
 * A stored answer to send again: what `SafeWritesInterceptor` hands back, instead of running the handler, for a
 * retry of a request it already answered. The HTTP adapter writes it as it was first sent (`writeTo`), marked
 * `Idempotent-Replayed: true`, whatever the route's own status would be.
 */
export class ReplayedAnswer {
  constructor(readonly answer: StoredAnswer) {}

  writeTo(response: Response): void {
    const { answer } = this;
    response.status(answer.status).setHeader('Idempotent-Replayed', 'true');
    if (answer.entityTag) response.setHeader('ETag', answer.entityTag);
    if (answer.body === '') {
      response.end();
      return;
    }
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(answer.body));
    response.end(answer.body);
  }
}
