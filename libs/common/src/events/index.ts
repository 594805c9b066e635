export * from './event-types.js';
export * from './history-entry.js';
