export * from './all-exceptions.filter.js';
export * from './domain-errors.js';
export * from './error.response.js';
export * from './body-parsing.js';
