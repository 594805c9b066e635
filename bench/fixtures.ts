import pg from 'pg';
import { hashApiKey } from './lib/api-key.js';
import type { SeedManifest } from './lib/manifest.js';

/** What the scenarios draw from, all of the big team, read once before the servers start. */
export interface Fixtures {
  teamId: string;
  apiKey: string;
  /** Work orders to GET one by one. */
  readIds: string[];
  /** Open work orders that PUT moves between reported and in_progress, with their status now. */
  moving: { id: string; status: 'reported' | 'in_progress' }[];
  /** Units (with one of their tenants, when they have one) to report new work orders at. */
  places: { unitId: string; tenantId: string | null }[];
  /** A completed work order, for the 409 parity check. */
  completedId: string;
  /** A tenant's last name, for the tenant search parity check. */
  tenantSurname: string;
}

interface Snapshot {
  lastNumber: number;
  moving: { id: string; status: string; updated_at: Date }[];
}

/** True when the seeded data set the manifest describes is in this database (its key and its big team). */
export async function isSeeded(url: string, manifest: SeedManifest): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ numbered: number }>(
      `SELECT t.last_work_order_number AS numbered FROM teams t JOIN api_keys k ON k.team_id = t.id
       WHERE t.id = $1 AND k.key_hash = $2 AND k.revoked_at IS NULL`,
      [manifest.bigTeam.teamId, hashApiKey(manifest.bigTeam.apiKey)],
    );
    return rows[0] !== undefined && rows[0].numbered >= manifest.bigTeam.counts.workOrders;
  } catch {
    return false;
  } finally {
    await client.end();
  }
}

/**
 * Reads the pools, and remembers what the writes will change so `restore` can put it back: the benchmark must
 * leave the seeded data as it found it, or each run would measure a slightly bigger team than the last.
 */
export async function prepare(
  url: string,
  manifest: SeedManifest,
  poolSize: number,
): Promise<{ fixtures: Fixtures; restore: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const teamId = manifest.bigTeam.teamId;
    const seededNumber = manifest.bigTeam.counts.workOrders;
    // Leftovers of an interrupted run go first.
    await undoCreates(client, teamId, seededNumber);
    const pick = async <T extends pg.QueryResultRow>(sql: string, limit = poolSize): Promise<T[]> =>
      (await client.query<T>(sql, [teamId, limit])).rows;
    // md5(id) gives a spread over the whole history that is the same on every run.
    const readIds = (
      await pick<{ id: string }>('SELECT id FROM work_orders WHERE team_id = $1 ORDER BY md5(id::text) LIMIT $2')
    ).map((row) => row.id);
    const moving = await pick<Snapshot['moving'][number] & { status: 'reported' | 'in_progress' }>(
      `SELECT id, status, updated_at FROM work_orders WHERE team_id = $1 AND status IN ('reported', 'in_progress')
       ORDER BY md5(id::text) LIMIT $2`,
    );
    const places = (
      await pick<{ unit_id: string; tenant_id: string | null }>(
        `SELECT u.id AS unit_id, (SELECT tu.tenant_id FROM tenant_units tu WHERE tu.team_id = u.team_id AND tu.unit_id = u.id
                                 ORDER BY tu.created_at LIMIT 1) AS tenant_id
         FROM units u WHERE u.team_id = $1 ORDER BY md5(u.id::text) LIMIT $2`,
      )
    ).map((row) => ({ unitId: row.unit_id, tenantId: row.tenant_id }));
    const completed = await pick<{ id: string }>(
      `SELECT id FROM work_orders WHERE team_id = $1 AND status = 'completed' ORDER BY number LIMIT $2`,
      1,
    );
    const surname = await pick<{ last_name: string }>(
      'SELECT last_name FROM tenants WHERE team_id = $1 ORDER BY md5(id::text) LIMIT $2',
      1,
    );
    if (readIds.length === 0 || moving.length === 0 || places.length === 0 || !completed[0] || !surname[0]) {
      throw new Error('the seeded big team lacks the rows the scenarios need; re-seed it');
    }
    const snapshot: Snapshot = { lastNumber: seededNumber, moving };
    return {
      fixtures: {
        teamId,
        apiKey: manifest.bigTeam.apiKey,
        readIds,
        moving: moving.map(({ id, status }) => ({ id, status })),
        places,
        completedId: completed[0].id,
        tenantSurname: surname[0].last_name,
      },
      restore: () => restore(url, teamId, snapshot),
    };
  } finally {
    await client.end();
  }
}

async function undoCreates(client: pg.Client, teamId: string, seededNumber: number): Promise<number> {
  // The attachments the run uploaded (the seed makes none), and the storage's entries their deletion lists: the
  // files themselves were in the runner's temporary folder, removed with it.
  const attachments = await client.query('DELETE FROM work_order_attachments WHERE team_id = $1', [teamId]);
  await client.query(`DELETE FROM attachment_objects WHERE storage_key LIKE $1 || '/%'`, [teamId]);
  const removed = await client.query('DELETE FROM work_orders WHERE team_id = $1 AND number > $2', [
    teamId,
    seededNumber,
  ]);
  await client.query('UPDATE teams SET last_work_order_number = $2 WHERE id = $1', [teamId, seededNumber]);
  // The events (and webhook deliveries) the run's writes recorded go too, so runs stay comparable, and so do the
  // history entries they wrote (numbered by the events: the numbers start again below). The seed writes none.
  await client.query('DELETE FROM webhook_endpoints WHERE team_id = $1', [teamId]);
  await client.query('DELETE FROM events WHERE team_id = $1', [teamId]);
  await client.query('DELETE FROM record_history WHERE team_id = $1', [teamId]);
  await client.query('DELETE FROM event_sequences WHERE team_id = $1', [teamId]);
  // The team gets its change version back, as any team that has written through the API has one (the seeded rows
  // stand for its history). A new row, so the version differs from any a server remembered a total for.
  await client.query('INSERT INTO event_sequences (team_id, last_seq) VALUES ($1, 0)', [teamId]);
  return (removed.rowCount ?? 0) + (attachments.rowCount ?? 0);
}

async function restore(url: string, teamId: string, snapshot: Snapshot): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    const removed = await undoCreates(client, teamId, snapshot.lastNumber);
    await client.query(
      `UPDATE work_orders w SET status = s.status, updated_at = s.updated_at, resolved_at = NULL, self_resolved = false
       FROM unnest($2::uuid[], $3::varchar[], $4::timestamptz[]) AS s (id, status, updated_at)
       WHERE w.team_id = $1 AND w.id = s.id`,
      [
        teamId,
        snapshot.moving.map((row) => row.id),
        snapshot.moving.map((row) => row.status),
        snapshot.moving.map((row) => row.updated_at),
      ],
    );
    await client.query('COMMIT');
    // The created rows are gone but their dead tuples stay until vacuumed; the next run should not see them.
    if (removed > 0) {
      await client.query('VACUUM ANALYZE work_orders, record_history, work_order_attachments, attachment_objects');
    }
  } finally {
    await client.end();
  }
}
