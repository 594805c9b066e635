export * from './event-types.js';
export * from './events.cleanup.js';
export * from './events.interceptor.js';
export * from './events.store.js';
export * from './history-entry.js';
