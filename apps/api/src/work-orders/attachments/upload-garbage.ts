/** A collection of the young generation (`gc({ type: 'minor' })` with `--expose-gc`). */
export type CollectYoung = (options: { type: 'minor' }) => void;

/** Upload bytes received between two collections of the young generation, at most, per upload in flight. */
export const COLLECT_EVERY_BYTES = 2 * 1024 * 1024;
/** And at most this many whatever the uploads in flight (stalled clients count as in flight until they go). */
export const COLLECT_AT_MOST_EVERY_BYTES = 8 * 1024 * 1024;

/**
 * An upload's body arrives as a new buffer per socket read (Node's HTTP parser copies each piece of the body), and
 * V8 frees those buffers only at its next collection, which streaming alone rarely triggers: few JavaScript objects
 * are allocated per byte, so the young generation hardly fills, and the external-memory trigger waits for tens of
 * megabytes. So once uploads have brought in `everyBytes` for each upload in flight since the last time, a
 * collection of the young generation frees the buffers already hashed and written (they are young and
 * unreferenced; the collection takes well under a millisecond, as it only copies what is still referenced), and a
 * 10 MiB upload leaves at most about that much garbage at any time, not 10 MiB.
 *
 * Per upload in flight, not a fixed amount: a buffer lives from its socket read until the storage has written it,
 * and the more uploads arrive side by side, the more bytes arrive meanwhile. With a fixed 2 MiB, ten uploads at
 * once had their buffers (and their requests' objects) survive two collections and move to the old generation,
 * which only a full mark-compact of the whole heap frees (docs/performance.md, "Attachments"). The interval stops
 * growing at `atMostBytes` (four uploads' worth): an upload whose client stalls half-way counts as in flight until
 * the connection goes, and a crowd of them must not stretch the interval without end.
 */
export class UploadGarbage {
  private bytes = 0;
  private arriving = 0;

  constructor(
    /** Absent where the process runs without `--expose-gc` (the tests run the app in-process): nothing collected. */
    private readonly collect: CollectYoung | undefined,
    private readonly everyBytes = COLLECT_EVERY_BYTES,
    private readonly atMostBytes = COLLECT_AT_MOST_EVERY_BYTES,
  ) {}

  /** An upload's file starts arriving; the function returned marks its end (calling it again does nothing). */
  started(): () => void {
    this.arriving += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.arriving -= 1;
    };
  }

  /** Bytes of an upload's file arrived: collects once enough have, for the uploads arriving now. */
  received(bytes: number): void {
    if (!this.collect) return;
    this.bytes += bytes;
    if (this.bytes < Math.min(this.everyBytes * Math.max(1, this.arriving), this.atMostBytes)) return;
    this.bytes = 0;
    this.collect({ type: 'minor' });
  }

  /** How many uploads' files are arriving now. */
  get inFlight(): number {
    return this.arriving;
  }
}

/** The process's pace of collections, shared by every upload. */
export const uploadGarbage = new UploadGarbage((globalThis as { gc?: CollectYoung }).gc);
