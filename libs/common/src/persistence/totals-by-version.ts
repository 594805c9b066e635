/**
 * Exact list totals, remembered per team and filter together with the team's change version, so a list whose
 * team has not changed since skips its count.
 *
 * The version is read in the same statement (so the same snapshot) as the page, and the count is computed only
 * when the version differs from the remembered one. It is exact because every change to a team's records is
 * announced by an event in the change's own transaction, and recording the event updates the team's
 * `event_sequences` row (docs/events.md): two snapshots that see the same version of that row (`last_seq` and
 * the row's `xmin`, the transaction that wrote it) see the same records. `xmin` makes a version never repeat,
 * even when the row is deleted and inserted again. docs/performance.md ("Exact totals by change version").
 */
export class TotalsByVersion {
  private readonly entries = new Map<string, { version: string; total: number }>();

  /** `capacity`: how many (team, filter) totals are kept; the least recently used one goes first. */
  constructor(private readonly capacity = 4096) {}

  /** The version and total remembered for `key`, if any (and marks it as recently used). */
  get(key: string): { version: string; total: number } | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  remember(key: string, version: string, total: number): void {
    this.entries.delete(key);
    this.entries.set(key, { version, total });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** SQL for a team's change version (text; NULL before the team's first change), against `team_id = $1`. */
export const TEAM_VERSION_SQL = `SELECT s.last_seq || '.' || s.xmin FROM event_sequences s WHERE s.team_id = $1`;
