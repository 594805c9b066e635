export * from './accounts.service.js';
export * from './password.js';
