export * from './team-scoped.repository.js';
