/**
 * `gc`, given to the process by `--expose-gc` (package.json's `start`); absent where the app runs without it (the
 * tests run it in-process), and `uploadBytesReceived` then does nothing.
 */
const collect = (globalThis as { gc?: (options: { type: 'minor' }) => void }).gc;

/** Upload bytes received between two collections of the young generation, at most. */
export const COLLECT_EVERY_BYTES = 2 * 1024 * 1024;

let received = 0;

/**
 * An upload's body arrives as a new buffer per socket read (Node's HTTP parser copies each piece of the body), and
 * V8 frees those buffers only at its next collection, which streaming alone rarely triggers: few JavaScript objects
 * are allocated per byte, so the young generation hardly fills, and the external-memory trigger waits for tens of
 * megabytes. So once uploads have brought in `COLLECT_EVERY_BYTES` since the last time, a collection of the young
 * generation frees the buffers already hashed and written (they are young and unreferenced; the collection takes
 * well under a millisecond, as it only copies what is still referenced), and a 10 MiB upload leaves at most about
 * that much garbage at any time, not 10 MiB (docs/performance.md, "Attachments").
 */
export function uploadBytesReceived(bytes: number): void {
  if (!collect) return;
  received += bytes;
  if (received < COLLECT_EVERY_BYTES) return;
  received = 0;
  collect({ type: 'minor' });
}
