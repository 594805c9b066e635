export * from './data-source-options.js';
export * from './embedded-postgres.js';
export * from './migrations/index.js';
export * from './migrate.js';
