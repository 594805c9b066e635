import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { bearer, createTestApp, createTestDatabase, type TestApp } from './support/test-app.js';
import { expectError, UUID } from './support/assertions.js';

/** Built by the test script (`scripts/ensure-build.mjs`) before Jest starts. */
const CLI = fileURLToPath(new URL('../dist/apps/cli/src/main.js', import.meta.url));
const API_KEY = /^ppk_[0-9A-Za-z]{32,}$/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface CreatedKeyLine {
  teamId: string;
  apiKeyId: string;
  apiKey: string;
}

describe('admin CLI', () => {
  let databaseUrl: string;
  let sut: TestApp;
  let db: pg.Client;

  function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** Exit 0 and exactly one JSON line on stdout. */
  function onlyLine(run: Run): unknown {
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout.endsWith('\n')).toBe(true);
    const lines = run.stdout.slice(0, -1).split('\n');
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]) as unknown;
  }

  function expectCreatedKey(run: Run): CreatedKeyLine {
    const line = onlyLine(run) as CreatedKeyLine;
    expect(Object.keys(line).sort()).toEqual(['apiKey', 'apiKeyId', 'teamId']);
    expect(line.teamId).toMatch(UUID);
    expect(line.apiKeyId).toMatch(UUID);
    expect(line.apiKey).toMatch(API_KEY);
    return line;
  }

  /** Non-zero exit, nothing on stdout, and `{error}` as the first line on stderr. */
  function expectFailure(run: Run): string {
    expect({ ...run, failed: run.code !== 0 && run.code !== null }).toEqual({ ...run, stdout: '', failed: true });
    const first = JSON.parse(run.stderr.split('\n')[0]) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(['error']);
    expect(typeof first.error).toBe('string');
    return first.error as string;
  }

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    sut = await createTestApp({ databaseUrl });
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await sut.close();
    // The app does not own a database it was handed, so this spec drops its own.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_SERVER_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
  });

  describe('teams, keys, revocation', () => {
    let team: CreatedKeyLine;
    let second: CreatedKeyLine;

    it('teams create prints one JSON line with a key that works against the API', async () => {
      team = expectCreatedKey(await cli(['teams', 'create', '--name', 'Acme Lettings']));
      const { rows } = await db.query('SELECT name FROM teams WHERE id = $1', [team.teamId]);
      expect(rows).toEqual([{ name: 'Acme Lettings' }]);

      const created = await sut
        .http()
        .post('/v1/contractors')
        .set(...bearer(team))
        .send({ companyName: 'A', contactName: 'B' });
      expect({ status: created.status, teamId: created.body.data?.teamId }).toEqual({
        status: 201,
        teamId: team.teamId,
      });
    });

    it('keys create adds a named key to the team, in the same shape', async () => {
      second = expectCreatedKey(await cli(['keys', 'create', '--team', team.teamId, '--name', 'x']));
      expect(second.teamId).toBe(team.teamId);
      expect(second.apiKey).not.toBe(team.apiKey);
      const { rows } = await db.query('SELECT name FROM api_keys WHERE id = $1', [second.apiKeyId]);
      expect(rows).toEqual([{ name: 'x' }]);
      const list = await sut
        .http()
        .get('/v1/contractors')
        .set(...bearer(second));
      expect(list.body.data).toHaveLength(1);
    });

    it('keys list shows both keys without any plaintext or hash', async () => {
      const run = await cli(['keys', 'list', '--team', team.teamId]);
      const keys = onlyLine(run) as Array<Record<string, unknown>>;
      expect(keys.map((key) => key.apiKeyId).sort()).toEqual([team.apiKeyId, second.apiKeyId].sort());
      expect(keys.find((key) => key.apiKeyId === second.apiKeyId)).toMatchObject({ name: 'x', revokedAt: null });
      const { rows } = await db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE team_id = $1', [
        team.teamId,
      ]);
      const secrets = [team.apiKey, second.apiKey, ...rows.map((row) => row.key_hash)];
      expect(secrets.filter((secret) => run.stdout.includes(secret))).toEqual([]);
      expect(run.stdout).not.toContain('ppk_');
    });

    it('keys revoke refuses the key on the next request and leaves the team’s other key working', async () => {
      const revoked = onlyLine(await cli(['keys', 'revoke', second.apiKeyId])) as Record<string, unknown>;
      expect(revoked.apiKeyId).toBe(second.apiKeyId);

      expectError(
        await sut
          .http()
          .get('/v1/contractors')
          .set(...bearer(second)),
        401,
      );
      expect(
        (
          await sut
            .http()
            .get('/v1/contractors')
            .set(...bearer(team))
        ).status,
      ).toBe(200);

      const keys = onlyLine(await cli(['keys', 'list', '--team', team.teamId])) as Array<Record<string, unknown>>;
      const listed = keys.find((key) => key.apiKeyId === second.apiKeyId);
      expect(listed?.revokedAt).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
    });
  });

  it('works with NODE_ENV=production', async () => {
    const created = expectCreatedKey(
      await cli(['teams', 'create', '--name', 'Production Lettings'], { NODE_ENV: 'production' }),
    );
    expect(
      (
        await sut
          .http()
          .get('/v1/contractors')
          .set(...bearer(created))
      ).status,
    ).toBe(200);
  });

  it.each<[string, string[]]>([
    ['an unknown command', ['frobnicate']],
    ['an unknown action', ['teams', 'delete']],
    ['teams create without a name', ['teams', 'create']],
    ['an unknown option', ['teams', 'create', '--name', 'A', '--colour', 'red']],
    ['--team that is not a UUID', ['keys', 'create', '--team', 'acme']],
    ['keys list without --team', ['keys', 'list']],
    ['keys revoke with an id that is not a UUID', ['keys', 'revoke', '42']],
  ])('refuses %s', async (_, args) => {
    const before = await db.query(
      'SELECT (SELECT count(*) FROM teams) AS teams, (SELECT count(*) FROM api_keys) AS keys',
    );
    expectFailure(await cli(args));
    const after = await db.query(
      'SELECT (SELECT count(*) FROM teams) AS teams, (SELECT count(*) FROM api_keys) AS keys',
    );
    expect(after.rows).toEqual(before.rows);
  });

  it.each<[string, string[], RegExp]>([
    ['keys create for an unknown team', ['keys', 'create', '--team', randomUUID()], /team not found/i],
    ['keys list for an unknown team', ['keys', 'list', '--team', randomUUID()], /team not found/i],
    ['keys revoke for an unknown key', ['keys', 'revoke', randomUUID()], /key not found/i],
  ])('refuses %s', async (_, args, message) => {
    expect(expectFailure(await cli(args))).toMatch(message);
  });
});
