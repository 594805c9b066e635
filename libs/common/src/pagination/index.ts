export * from './page.query.js';
export * from './pagination.response.js';
export * from './list-batches.js';
