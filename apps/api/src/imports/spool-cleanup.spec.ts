import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@app/common';
import { ABANDONED_SPOOL_MS, SpoolCleanup } from './spool-cleanup.js';
import { SPOOL_FILE_PREFIX } from './spooled-body.js';

describe('SpoolCleanup', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'spool-cleanup-spec-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  /** A file last written `ageMs` before `now`. */
  const fileAged = async (name: string, now: number, ageMs: number): Promise<void> => {
    await writeFile(join(folder, name), 'externalRef,city\n');
    const at = (now - ageMs) / 1000;
    await utimes(join(folder, name), at, at);
  };

  it('removes only this service’s spool files untouched for an hour, and nothing on a second pass', async () => {
    const now = Date.now();
    const cleanup = new SpoolCleanup(loadConfig({ NODE_ENV: 'test', IMPORT_SPOOL_DIR: folder }));
    await fileAged(`${SPOOL_FILE_PREFIX}crashed`, now, ABANDONED_SPOOL_MS + 1000);
    await fileAged(`${SPOOL_FILE_PREFIX}arriving`, now, 30_000);
    await fileAged('someone-elses-file', now, 2 * ABANDONED_SPOOL_MS);
    await mkdir(join(folder, `${SPOOL_FILE_PREFIX}a-folder`));

    expect(await cleanup.run(now)).toBe(1);
    expect((await readdir(folder)).sort()).toEqual(
      [`${SPOOL_FILE_PREFIX}a-folder`, `${SPOOL_FILE_PREFIX}arriving`, 'someone-elses-file'].sort(),
    );
    expect(await cleanup.run(now)).toBe(0);

    // An hour on, the body that was arriving then (had its process died) is taken too.
    expect(await cleanup.run(now + ABANDONED_SPOOL_MS)).toBe(1);
    expect((await readdir(folder)).sort()).toEqual([`${SPOOL_FILE_PREFIX}a-folder`, 'someone-elses-file'].sort());
  });

  it('finds nothing to do in a folder not made yet', async () => {
    const missing = join(folder, 'not-yet');
    const cleanup = new SpoolCleanup(loadConfig({ NODE_ENV: 'test', IMPORT_SPOOL_DIR: missing }));
    expect(await cleanup.run()).toBe(0);
  });
});
