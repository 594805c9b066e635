import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMigration } from './create-migration.js';

const INDEX = `import { First1000 } from './1000-first.js';
import { Second2000 } from './2000-second.js';

/** Every migration, in order. */
export const migrations = [
  First1000,
  Second2000,
];
`;

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  await writeFile(join(dir, 'index.ts'), INDEX);
  return dir;
}

describe('createMigration', () => {
  it('writes an empty migration named by time and name, and appends it to the index', async () => {
    const dir = await folder();
    const path = await createMigration(dir, 'AddUnitNotes', 3000);
    expect(path).toBe(join(dir, '3000-add-unit-notes.ts'));
    const source = await readFile(path, 'utf8');
    expect(source).toContain('export class AddUnitNotes3000 implements MigrationInterface {');
    expect(source).toContain("name = 'AddUnitNotes3000';");
    expect(await readFile(join(dir, 'index.ts'), 'utf8')).toBe(`import { First1000 } from './1000-first.js';
import { Second2000 } from './2000-second.js';
import { AddUnitNotes3000 } from './3000-add-unit-notes.js';

/** Every migration, in order. */
export const migrations = [
  First1000,
  Second2000,
  AddUnitNotes3000,
];
`);
  });

  it('refuses a name that is not PascalCase, and changes nothing', async () => {
    const dir = await folder();
    await expect(createMigration(dir, 'add-notes', 3000)).rejects.toThrow('a migration name is PascalCase');
    expect(await readFile(join(dir, 'index.ts'), 'utf8')).toBe(INDEX);
  });

  it('never overwrites a migration that exists', async () => {
    const dir = await folder();
    await createMigration(dir, 'AddUnitNotes', 3000);
    await expect(createMigration(dir, 'AddUnitNotes', 3000)).rejects.toThrow();
  });
});
