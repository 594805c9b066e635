export * from './conditional-resource.js';
export * from './entity-tag.js';
export * from './entity-tag.guard.js';
export * from './idempotency.cleanup.js';
export * from './idempotency.store.js';
export * from './replayed-answer.js';
export * from './safe-writes.interceptor.js';
export * from './safe-writes.module.js';
