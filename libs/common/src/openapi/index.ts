export * from './api-responses.js';
export * from './api-operations.js';
export * from './finish-document.js';
export * from './examples.js';
export * from './descriptions.js';
