export * from './memory.store.js';
export * from './rate-limiter.js';
export * from './rate-limit.module.js';
export * from './rate-limits.js';
export * from './redis.store.js';
export * from './sliding-window.store.js';
