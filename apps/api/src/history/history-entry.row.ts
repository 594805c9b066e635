import type { Actor, FieldChange } from '@app/common';

/** One entry of a record's history as the repository reads it (`record_history`), in domain names. */
export interface HistoryEntryRow {
  id: string;
  type: string;
  at: string;
  actor: Actor;
  changes: Record<string, FieldChange> | null;
  subjectId: string | null;
}
