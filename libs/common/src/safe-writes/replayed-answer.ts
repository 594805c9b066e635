import type { StoredAnswer } from './idempotency.store.js';

/** Thrown to answer with a stored answer; the exception filter writes it as it was, marked as replayed. */
export class ReplayedAnswer extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('replayed answer');
    this.name = 'ReplayedAnswer';
  }
}
