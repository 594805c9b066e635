import type { EntityManager } from 'typeorm';
import { teamStatement } from '@app/common';

/**
 * How `EventsStore.record` runs the outbox's one statement (the event, its number, its webhook fan-out and the
 * record's history entry), which the team-scoped builders cannot express: a CTE over `event_sequences`, `events`,
 * `webhook_deliveries` and `record_history`. Safe because every row it writes carries `$1` as its team, the
 * endpoints it fans out to are joined on `w.team_id = $1`, and a deleted record's history is deleted on
 * `team_id = $1` (docs/architecture.md, "Team isolation").
 */
export function outboxStatement<R>(
  manager: EntityManager,
  teamId: string,
  text: string,
  params: unknown[],
  options: { prepared?: boolean; commits?: boolean } = {},
): Promise<R[]> {
  return teamStatement<R>(manager, teamId, text, params, {
    why: 'the outbox: $1 in every row written, endpoints joined and history deleted on team_id = $1',
    ...options,
  });
}
