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

if (import.meta.url === `file://${process.argv[1]}`) {
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
