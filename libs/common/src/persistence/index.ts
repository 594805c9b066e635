export * from './team-scoped.repository.js';
export * from './team-owned.entity.js';
export { ambientManager, preparedQuery, runInTransaction, teamScopedQuery, Transactions } from './transactions.js';
export * from './connection-errors.js';
export * from './remembered-by-version.js';
export * from './named-statements.js';
export * from './connection-roles.js';
export * from './server-settings.js';
export * from './bulk-writes.js';
