import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A migration's class name: PascalCase letters and digits, starting with a letter. */
export const MIGRATION_NAME = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Writes an empty migration, `<timestamp>-<kebab-name>.ts` with class `<Name><timestamp>`, into `dir` and appends
 * it to the list in `dir/index.ts` (ES modules have no glob loading), so the next start applies it. The schema is
 * written by hand — team-led keys, expression and trigram indexes, checks and triggers that entities do not
 * describe — so there is no diff of entities against a database to start from.
 */
export async function createMigration(dir: string, name: string, now: number): Promise<string> {
  if (!MIGRATION_NAME.test(name)) throw new Error(`${name}: a migration name is PascalCase, e.g. AddUnitNotes`);
  const file = `${now}-${name.replace(/(?<=[a-z0-9])(?=[A-Z])/g, '-').toLowerCase()}`;
  const className = `${name}${now}`;
  const indexPath = join(dir, 'index.ts');
  const lines = (await readFile(indexPath, 'utf8')).split('\n');
  const lastImport = lines.findLastIndex((line) => line.startsWith('import '));
  const listStart = lines.findIndex((line) => line.startsWith('export const migrations = ['));
  const listEnd = lines.findIndex((line, i) => i > listStart && line === '];');
  if (lastImport < 0 || listStart < 0 || listEnd < 0) {
    throw new Error(`${indexPath}: no imports and \`export const migrations = [ … ];\` list to append to`);
  }
  lines.splice(listEnd, 0, `  ${className},`);
  lines.splice(lastImport + 1, 0, `import { ${className} } from './${file}.js';`);
  const path = join(dir, `${file}.ts`);
  await writeFile(path, migrationSource(className), { flag: 'wx' });
  await writeFile(indexPath, lines.join('\n'));
  return path;
}

function migrationSource(className: string): string {
  return `import { MigrationInterface, QueryRunner } from 'typeorm';

/** What this migration changes, and why. */
export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(db: QueryRunner): Promise<void> {
    await db.query(\`\`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(\`\`);
  }
}
`;
}
