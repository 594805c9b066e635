import { Injectable } from '@nestjs/common';
import { Clock, PeriodicTask } from '@app/common';
import { AttachmentObjectsRepository } from './storage/attachment-objects.repository.js';
import { ObjectStorage } from './storage/object-storage.js';

/** An upload whose row has not committed after this long never will (the request is long gone). */
export const ABANDONED_UPLOAD_MS = 60 * 60_000;

/**
 * Removes the objects no row points at, every minute on every instance: those of deleted attachments (and work
 * orders), and uploads whose row never committed. Safe to run anywhere, any number of times.
 */
@Injectable()
export class AttachmentsCleanup extends PeriodicTask {
  constructor(
    private readonly objects: AttachmentObjectsRepository,
    private readonly storage: ObjectStorage,
    private readonly clock: Clock,
  ) {
    super(60_000, 'Attachments');
  }

  async run(): Promise<number> {
    const before = new Date(this.clock.now() - ABANDONED_UPLOAD_MS);
    let total = 0;
    for (;;) {
      const removed = await this.objects.drain(before, 100, async (keys) => {
        for (const key of keys) await this.storage.delete(key);
      });
      total += removed;
      if (removed < 100) return total;
    }
  }
}
