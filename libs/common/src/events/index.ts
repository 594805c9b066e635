export * from './event-types.js';
