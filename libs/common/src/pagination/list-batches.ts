import { ScopedStorage } from '../async/scoped-storage.js';

/** Where a batch ends: its last row's order key (full precision) and id. */
export interface BatchKey {
  key: string;
  id: string;
}

/**
 * A list read in keyset batches instead of pages (an export: every matching record, streamed): while a list's
 * handler runs inside `inListBatch`, the paging helper (`TeamScopedTable.pageRows`) reads the `size` rows that
 * follow `after` in the list's own order, with its own filters, counts nothing, and sets `last` for the next batch.
 * So every list gets batches through its unchanged controller, service and repository.
 */
export interface ListBatch {
  size: number;
  after?: BatchKey;
  /** Set by the paging helper: where this batch ended (undefined when it was empty). */
  last?: BatchKey;
}

const batches = new ScopedStorage<ListBatch>();

/** Runs `read` (a list's handler) with its paging helper reading `batch` instead of a page. */
export function inListBatch<T>(batch: ListBatch, read: () => Promise<T>): Promise<T> {
  return batches.run(batch, read);
}

/** The batch the current list reads, if it reads one. */
export function currentListBatch(): ListBatch | undefined {
  return batches.getStore();
}
