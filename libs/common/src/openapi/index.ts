export * from './api-responses.js';
