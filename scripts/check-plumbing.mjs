// `npm run check:architecture` (after depcruise): libs/common is plumbing any HTTP service on PostgreSQL could
// reuse, so it names none of the app's resources — in code, comments or tests, in any spelling. What the app's
// resources are (event types, examples, descriptions) is derived from apps/api/src/resources.ts and handed to the
// library. Exits 1 listing every line that names one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const LIBRARY = join(root, 'libs/common');

/**
 * The app's resources in every spelling: `work order`, `work_orders`, `WorkOrder`, `work-order`, `workOrderId`,
 * `TENANT`, `unitIds`… A word that merely contains one (`community`, `maintenance`) is not a match.
 */
const RESOURCE = /(?<![A-Za-z])(?:work[ _-]?orders?|tenants?|tenanc(?:y|ies)|landlords?|contractors?|units?)(?![a-z])/i;

function files(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : files(path);
    return /\.(ts|mjs|cjs|js|json|md)$/.test(entry.name) ? [path] : [];
  });
}

/** `path:line: text` for every line of the library that names a resource. */
export function resourceNamesIn(folder) {
  return files(folder).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (RESOURCE.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [])),
  );
}

/**
 * Team scoping by construction: SQL is run through the team-scoped builders (libs/common/src/persistence/team-sql.ts).
 * The statements they cannot express go through `teamStatement`/`unscopedStatement` (unscoped-statements.ts), each
 * with the reason it is safe, and only in the files below — the list docs/architecture.md ("Team isolation")
 * names. A bare `.query(` runs only in the persistence plumbing, savepoints and the two LISTEN connections.
 */
const UNSCOPED_STATEMENTS = [
  'apps/api/src/api-keys/api-keys.repository.ts',
  'apps/api/src/api-keys/usage.repository.ts',
  'apps/api/src/dashboard/accounts/accounts.repository.ts',
  'apps/api/src/dashboard/sessions.repository.ts',
  'apps/api/src/events/events.store.ts',
  'apps/api/src/events/outbox-statement.ts',
  'apps/api/src/imports/imports.repository.ts',
  'apps/api/src/tenancies/tenancies.repository.ts',
  'apps/api/src/webhooks/webhook-deliveries.repository.ts',
  'apps/api/src/webhooks/webhook-queue.repository.ts',
  'apps/api/src/work-orders/attachments/attachments.repository.ts',
  'apps/api/src/work-orders/attachments/storage/attachment-objects.repository.ts',
  'apps/api/src/work-orders/notes/work-order-notes.repository.ts',
  'apps/api/src/work-orders/work-orders.repository.ts',
  'libs/common/src/persistence/team-scoped.repository.ts',
  'libs/common/src/persistence/unscoped-statements.ts',
  'libs/common/src/safe-writes/idempotency.store.ts',
];
const BARE_QUERIES = [
  'apps/api/src/api-keys/api-key-cache.ts',
  'apps/api/src/webhooks/webhook-dispatcher.ts',
  'libs/common/src/persistence/bulk-writes.ts',
  'libs/common/src/persistence/named-statements.ts',
  'libs/common/src/persistence/pipelined-transactions.ts',
  'libs/common/src/persistence/server-settings.ts',
  'libs/common/src/persistence/transactions.ts',
  'libs/common/src/persistence/unscoped-statements.ts',
  'libs/common/src/safe-writes/safe-writes.interceptor.ts',
];
const CHECKS = [
  {
    pattern: /\b(?:unscopedStatement|teamStatement|this\.statement)\b/,
    allowed: UNSCOPED_STATEMENTS,
    what: 'an unscoped statement',
  },
  { pattern: /\.query(?:<[^>]*>)?\(/, allowed: BARE_QUERIES, what: 'bare SQL (.query)' },
];

/** `path:line: …` for every statement outside the files allowed to run it. */
export function strayStatements() {
  const sources = ['apps/api/src', 'apps/cli/src', 'libs/common/src'].flatMap((folder) =>
    files(join(root, folder)).filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts')),
  );
  return sources.flatMap((file) => {
    const path = relative(root, file);
    return readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        CHECKS.filter((check) => check.pattern.test(line) && !check.allowed.includes(path)).map(
          (check) => `${path}:${index + 1}: ${check.what}: ${line.trim()}`,
        ),
      );
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stray = strayStatements();
  if (stray.length > 0) {
    process.stderr.write(
      `SQL outside the team-scoped builders, in a file docs/architecture.md does not list:\n${stray.join('\n')}\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write('✔ every statement is team-scoped by construction or listed as unscoped\n');
  }
  const found = resourceNamesIn(LIBRARY);
  if (found.length > 0) {
    process.stderr.write(
      `libs/common names the app's resources (move it to apps/api, or take it as a parameter):\n${found.join('\n')}\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write('✔ libs/common names no resource of the app\n');
  }
}
