import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AppConfig, PeriodicTask } from '@app/common';
import { SPOOL_FILE_PREFIX, spoolFolder } from './spooled-body.js';

/**
 * A spooled body's file lives only while its body arrives, which Node's HTTP server cuts off after its
 * `requestTimeout` (5 minutes by default, and the service sets no other): one untouched for this long belonged to a
 * process that died mid-body.
 */
export const ABANDONED_SPOOL_MS = 60 * 60_000;

/**
 * Removes the files of import bodies whose process died while they arrived (`spoolBody` deletes every other one
 * itself), every ten minutes on every instance. Only this service's files (by their prefix), only regular files, and
 * only those untouched for an hour, so a body still arriving on another instance sharing the folder is never taken.
 * Safe to run anywhere, any number of times.
 */
@Injectable()
export class SpoolCleanup extends PeriodicTask {
  private readonly folder: string;

  constructor(config: AppConfig) {
    super(10 * 60_000, 'ImportSpool');
    this.folder = spoolFolder(config.IMPORT_SPOOL_DIR);
  }

  /**
   * One pass: the number of files removed. `now` is the wall clock's (not the app's `Clock`, which tests set to
   * another time): the files' modification times are the system's.
   */
  async run(now = Date.now()): Promise<number> {
    const names = await readdir(this.folder).catch((error: NodeJS.ErrnoException) => {
      // Not made yet (no import received since it was configured): nothing to remove.
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const before = now - ABANDONED_SPOOL_MS;
    let removed = 0;
    for (const name of names) {
      if (!name.startsWith(SPOOL_FILE_PREFIX)) continue;
      const path = join(this.folder, name);
      const found = await lstat(path).catch(() => undefined);
      if (!found?.isFile() || found.mtimeMs >= before) continue;
      // Another instance may have removed it meanwhile.
      if (
        await unlink(path).then(
          () => true,
          () => false,
        )
      )
        removed += 1;
    }
    return removed;
  }
}
