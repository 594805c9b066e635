export * from './api-key.guard.js';
export * from './authenticated.decorator.js';
export * from './caller.js';
export * from './caller-lookup.js';
export * from './public.decorator.js';
export * from './request-gate.js';
export * from './failed-auth-limiter.js';
export * from './test-mode.js';
