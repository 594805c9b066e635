/**
 * What a list read found (its exact total, a page of rows), remembered per team and request together with the
 * team's change version, so a list whose team has not changed since is answered without the work again.
 *
 * The version is read in the same statement (so the same snapshot) as the list, and the total or the page is
 * computed only when the version differs from the remembered one. This is exact because every change to a team's
 * records is announced by an event in the change's own transaction, and recording the event updates the team's
 * `event_sequences` row (docs/events.md): two snapshots that see the same version of that row (`last_seq` and
 * the row's `xmin`, the transaction that wrote it) see the same records. `xmin` makes a version never repeat,
 * even when the row is deleted and inserted again. docs/performance.md ("Lists by change version").
 */
export class RememberedByVersion<T> {
  private readonly entries = new Map<string, { version: string; value: T; weight: number }>();
  private weight = 0;

  /**
   * `capacity`: the total weight kept (by default each value weighs 1, so it is a number of keys); the least
   * recently used keys go first. `weigh` lets a value count for more, e.g. a page by its rows.
   */
  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: T) => number = () => 1,
  ) {}

  /** The version and value remembered for `key`, if any (and marks it as recently used). */
  get(key: string): { version: string; value: T } | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  remember(key: string, version: string, value: T): void {
    this.forget(key);
    const weight = Math.max(1, this.weigh(value));
    if (weight > this.capacity) return;
    this.entries.set(key, { version, value, weight });
    this.weight += weight;
    for (const oldest of this.entries.keys()) {
      if (this.weight <= this.capacity) break;
      this.forget(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}

/** SQL for a team's change version (text; NULL before the team's first change), against `team_id = $1`. */
export const TEAM_VERSION_SQL = `SELECT s.last_seq || '.' || s.xmin FROM event_sequences s WHERE s.team_id = $1`;
