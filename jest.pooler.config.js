import base from './jest.config.js';

/**
 * `npm run test:pooler`: the e2e specs that cover what a transaction pooler can break (named prepared statements,
 * session state, LISTEN/NOTIFY across instances) run again with every app behind PgBouncer in transaction mode
 * (test/support/pooler-global-setup.mjs; test-app.ts sets DATABASE_URL through it, DATABASE_DIRECT_URL and
 * DB_POOLER=transaction), plus the specs under test/pooler. Needs Debian's `pgbouncer` (apt-get install -y pgbouncer).
 */
const SPECS = [
  'auth',
  'contract',
  'api-key-cache',
  'key-access',
  'contractors-create',
  'contractors-list',
  'contractors-update',
  'landlords',
  'tenants',
  'tenants-list',
  'tenant-links',
  'units',
  'units-list',
  'work-orders-create',
  'work-orders-list',
  'work-orders-update',
  'work-orders-status',
  'work-orders-concurrency',
  'safe-retries',
  'write-operations',
  'events',
  'webhooks',
  'webhooks-instances',
  'three-instances',
  'contract-external-ref',
  'contract-history',
  'work-order-notes',
  'work-order-attachments',
  'contract-exports',
  'imports',
  'test-mode',
  'dashboard-test-mode',
];

export default {
  ...base,
  roots: ['<rootDir>/test'],
  testRegex: [`/test/(${SPECS.join('|')})\\.e2e-spec\\.ts$`, '/test/pooler/[^/]+\\.pooler-spec\\.ts$'],
  globalSetup: '<rootDir>/test/support/pooler-global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/pooler-global-teardown.mjs',
};
