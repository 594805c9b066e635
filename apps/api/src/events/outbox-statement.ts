import type { EntityManager } from 'typeorm';
import { teamStatement } from '@app/common';

/**
 * How `EventsStore.record` runs the outbox's one statement (the event, its number and its webhook fan-out), which
 * the team-scoped builders cannot express: a CTE over `event_sequences`, `events` and `webhook_deliveries`. Safe
 * because every row it writes carries `$1` as its team, and the endpoints it fans out to are joined on
 * `w.team_id = $1` (docs/architecture.md, "Team isolation").
 */
export function outboxStatement<R>(
  manager: EntityManager,
  teamId: string,
  text: string,
  params: unknown[],
  options: { prepared?: boolean } = {},
): Promise<R[]> {
  return teamStatement<R>(manager, teamId, text, params, {
    why: 'the outbox: $1 in every row written, endpoints joined on w.team_id = $1',
    prepared: options.prepared,
  });
}
