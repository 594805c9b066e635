import { describe, expect, it } from '@jest/globals';
import { teamDeleteSql, teamInsertSql, teamSelectSql, teamUpdateSql } from './team-sql.js';

const squash = (sql: string): string => sql.replace(/\s+/g, ' ').trim();

describe('team-scoped SQL builders', () => {
  it('select: adds the root alias team_id = $1 and puts the caller condition in parentheses after it', () => {
    const sql = teamSelectSql({
      from: 'events e',
      columns: 'e.body',
      where: 'e.seq > $2 OR true',
      orderBy: 'e.seq',
      limit: '$3',
    });
    expect(squash(sql)).toBe(
      'SELECT e.body FROM events e WHERE e.team_id = $1 AND (e.seq > $2 OR true) ORDER BY e.seq LIMIT $3',
    );
  });

  it('select: scopes the root table even without a condition, with joins and a lock', () => {
    const sql = teamSelectSql({
      from: 'api_keys',
      columns: '*',
      joins: 'JOIN teams t ON t.id = api_keys.team_id',
      lock: 'FOR UPDATE',
    });
    expect(squash(sql)).toBe(
      'SELECT * FROM api_keys api_keys JOIN teams t ON t.id = api_keys.team_id WHERE api_keys.team_id = $1 FOR UPDATE',
    );
  });

  it('update: scopes the WHERE and, with returning, answers the rows through a CTE', () => {
    expect(squash(teamUpdateSql({ table: 'api_keys k', set: 'revoked_at = now()', where: 'k.id = $2' }))).toBe(
      'UPDATE api_keys k SET revoked_at = now() WHERE k.team_id = $1 AND (k.id = $2)',
    );
    expect(
      squash(
        teamUpdateSql({
          table: 'items w',
          set: 'a = $3',
          where: 'w.id = $2',
          returning: '*',
          then: { columns: 'w.id' },
        }),
      ),
    ).toBe('WITH w AS (UPDATE items w SET a = $3 WHERE w.team_id = $1 AND (w.id = $2) RETURNING *) SELECT w.id FROM w');
  });

  it('delete: scopes the WHERE', () => {
    expect(squash(teamDeleteSql({ from: 'links l', where: 'l.owner_id = $2', returning: 'l.id' }))).toBe(
      'WITH gone AS (DELETE FROM links l WHERE l.team_id = $1 AND (l.owner_id = $2) RETURNING l.id) SELECT * FROM gone',
    );
  });

  it('insert: puts $1 in team_id and binds the columns from $2', () => {
    expect(squash(teamInsertSql({ into: 'idempotency_keys k', columns: ['key', 'body'], returning: 'k.key' }))).toBe(
      'INSERT INTO idempotency_keys AS k (team_id, key, body) VALUES ($1, $2, $3) RETURNING k.key',
    );
  });
});
