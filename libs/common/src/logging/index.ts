export * from './logger.js';
export * from './nest-logger.js';
export * from './request-context.js';
export * from './request-logger.js';
