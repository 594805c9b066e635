import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import request from 'supertest';
import { ApiKeysService } from '../apps/api/src/api-keys/index.js';
import { bearer, createTestApp, createTestDatabase, type TestApp } from './support/test-app.js';
import { expectError, UUID } from './support/assertions.js';

/** Built by the test script (`scripts/ensure-build.mjs`) before Jest starts. */
const CLI = fileURLToPath(new URL('../dist/apps/cli/src/main.js', import.meta.url));
const API_KEY = /^ppk_[0-9A-Za-z]{32,}$/;
const TEST_KEY = /^ppk_test_[0-9A-Za-z]{32,}$/;

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

  function cli(args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
        stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
      if (input !== undefined) child.stdin?.end(input);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
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

  /** Exactly `{"teamId","apiKeyId","apiKey"}`, the shape of every key the CLI makes (a test key's too). */
  function expectCreatedKey(run: Run, key = API_KEY): CreatedKeyLine {
    const line = onlyLine(run) as CreatedKeyLine;
    expect(Object.keys(line).sort()).toEqual(['apiKey', 'apiKeyId', 'teamId']);
    expect(line.teamId).toMatch(UUID);
    expect(line.apiKeyId).toMatch(UUID);
    expect(line.apiKey).toMatch(key);
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
      // Only the prefix that tells keys apart (as the dashboard shows it), never more of a key.
      expect(keys.map((key) => key.prefix).sort()).toEqual(
        [team.apiKey.slice(0, 12), second.apiKey.slice(0, 12)].sort(),
      );
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
    ['words past the command', ['teams', 'create', '--name', 'A', 'extra', 'words']],
    ['a second id to revoke', ['keys', 'revoke', randomUUID(), randomUUID()]],
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

  describe('help, teams list, users and key options', () => {
    it('--help prints the usage on stdout and exits 0', async () => {
      const run = await cli(['--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('teams list');
      expect(run.stdout).toContain('users create --team <teamId> --email <email>');
      expect(run.stderr).toBe('');
    });

    it('teams list shows every team with its live keys (neither revoked nor expired) and all its keys', async () => {
      const team = expectCreatedKey(await cli(['teams', 'create', '--name', 'Listed Lettings']));
      const revoked = expectCreatedKey(await cli(['keys', 'create', '--team', team.teamId]));
      const expired = expectCreatedKey(await cli(['keys', 'create', '--team', team.teamId]));
      expectCreatedKey(await cli(['keys', 'create', '--team', team.teamId]));
      expectCreatedKey(await cli(['keys', 'create', '--team', team.teamId]));
      expect((await cli(['keys', 'revoke', revoked.apiKeyId])).code).toBe(0);
      await db.query("UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1", [expired.apiKeyId]);
      const teams = onlyLine(await cli(['teams', 'list'])) as Array<Record<string, unknown>>;
      expect(teams.find((entry) => entry.teamId === team.teamId)).toEqual({
        teamId: team.teamId,
        name: 'Listed Lettings',
        createdAt: expect.any(String),
        liveKeys: 3,
        totalKeys: 5,
      });
    });

    it('teams create takes a name another team has (ignoring case), warning on stderr unless --allow-duplicate', async () => {
      const first = expectCreatedKey(await cli(['teams', 'create', '--name', 'Twice Lettings']));
      const again = await cli(['teams', 'create', '--name', 'twice lettings']);
      // The contract's command prints its one line whatever the name: a second team, its own key.
      const second = expectCreatedKey({ ...again, stderr: '' });
      expect(second.teamId).not.toBe(first.teamId);
      expect(
        again.stderr
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as unknown),
      ).toEqual([
        {
          warning:
            `a team named "Twice Lettings" already exists (teamId ${first.teamId}); created another one. For a key ` +
            `of that team use keys create --team ${first.teamId} (--allow-duplicate silences this warning)`,
        },
      ]);
      const quiet = await cli(['teams', 'create', '--allow-duplicate', '--name', 'Twice Lettings']);
      expectCreatedKey(quiet);
      expect(quiet.stderr).toBe('');
      const listed = onlyLine(await cli(['teams', 'list'])) as Array<{ name: string }>;
      expect(listed.filter((entry) => entry.name.toLowerCase() === 'twice lettings')).toHaveLength(3);
    });

    it('users create reads the password from standard input; the account signs in to the dashboard', async () => {
      const team = expectCreatedKey(await cli(['teams', 'create', '--name', 'Users Lettings']));
      const password = 'a long enough password';
      const created = onlyLine(
        await cli(
          ['users', 'create', '--team', team.teamId, '--email', 'clerk@users-lettings.co.uk'],
          {},
          `${password}\n`,
        ),
      ) as Record<string, unknown>;
      expect(Object.keys(created)).toEqual(['userId']);
      expect(created.userId).toMatch(UUID);
      const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [
        created.userId,
      ]);
      expect(rows[0].password_hash).toMatch(/^scrypt\$/);
      expect(rows[0].password_hash).not.toContain(password);

      const agent = request.agent(sut.app.getHttpServer());
      const form = await agent.get('/dashboard/sign-in').expect(200);
      const token = /name="_csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
      await agent
        .post('/dashboard/sign-in')
        .type('form')
        .send({ _csrf: token, email: 'clerk@users-lettings.co.uk', password })
        .expect(303)
        .expect('Location', '/dashboard/keys');
    });

    it('users create refuses a short password and a taken email', async () => {
      const team = expectCreatedKey(await cli(['teams', 'create', '--name', 'Strict Lettings']));
      const args = ['users', 'create', '--team', team.teamId, '--email', 'owner@strict-lettings.co.uk'];
      expect(expectFailure(await cli(args, {}, 'short\n'))).toBe('Password must be at least 12 characters');
      onlyLine(await cli(args, {}, 'long enough password\n'));
      expect(expectFailure(await cli(args, {}, 'another long password\n'))).toBe(
        'An account with this email already exists',
      );
    });

    it('keys create --test prints the usual shape with the live teamId; the key reaches the team’s sandbox', async () => {
      // Teams and keys the command does not print are made in-process: each CLI run is a Node start.
      const team = await sut.createTeam('Sandbox Lettings');
      const run = await cli(['keys', 'create', '--team', team.teamId, '--test', '--name', 'ci']);
      const line = expectCreatedKey(run, TEST_KEY);
      expect(line.teamId).toBe(team.teamId);
      const sandboxTeamId = await sut.app.get(ApiKeysService).sandboxOf(team.teamId);
      expect(sandboxTeamId).not.toBe(team.teamId);

      const created = await sut
        .http()
        .post('/v1/contractors')
        .set(...bearer(line.apiKey))
        .send({ companyName: 'Sandbox Plumbing', contactName: 'Sam Reed' });
      expect({
        status: created.status,
        teamId: created.body.data?.teamId,
        testMode: created.headers['x-test-mode'],
      }).toEqual({ status: 201, teamId: sandboxTeamId, testMode: 'true' });
      const liveList = await sut
        .http()
        .get('/v1/contractors')
        .set(...bearer(team));
      expect(liveList.body.pagination.total).toBe(0);
      expect(liveList.headers['x-test-mode']).toBeUndefined();

      // A second test key goes to the same sandbox.
      const again = await sut.app.get(ApiKeysService).createKey(team.teamId, null, { test: true });
      expect(again.sandboxTeamId).toBe(sandboxTeamId);
    });

    it('keys list --test lists only the sandbox’s keys; keys list only the live ones', async () => {
      const team = await sut.createTeam('Two Modes Lettings');
      const test = await sut.app.get(ApiKeysService).createKey(team.teamId, 'ci', { test: true });
      const testKeys = onlyLine(await cli(['keys', 'list', '--team', team.teamId, '--test'])) as Array<{
        apiKeyId: string;
        prefix: string;
      }>;
      expect(testKeys.map((key) => key.apiKeyId)).toEqual([test.apiKeyId]);
      expect(testKeys[0].prefix).toMatch(/^ppk_test_/);
      const liveKeys = onlyLine(await cli(['keys', 'list', '--team', team.teamId])) as Array<{ apiKeyId: string }>;
      expect(liveKeys.map((key) => key.apiKeyId)).toEqual([team.apiKeyId]);
    });

    it('refuses --test on any other command as a usage error', async () => {
      const team = await sut.createTeam('Flag Lettings');
      for (const args of [
        ['teams', 'list', '--test'],
        ['teams', 'create', '--name', 'Flagged Lettings', '--test'],
        ['keys', 'revoke', team.apiKeyId, '--test'],
        ['users', 'create', '--team', team.teamId, '--email', 'flag@flag-lettings.co.uk', '--test'],
      ]) {
        const run = await cli(args, {}, 'a long enough password\n');
        expect({ args, code: run.code }).toEqual({ args, code: 2 });
        expect(expectFailure(run)).toBe('--test is only for keys create and keys list');
      }
      // Nothing was done: the key still works, no team or account was made.
      await sut
        .http()
        .get('/v1/units')
        .set(...bearer(team))
        .expect(200);
      const { rows } = await db.query(
        "SELECT (SELECT count(*)::int FROM teams WHERE name = 'Flagged Lettings') AS teams, " +
          "(SELECT count(*)::int FROM users WHERE email = 'flag@flag-lettings.co.uk') AS users",
      );
      expect(rows).toEqual([{ teams: 0, users: 0 }]);
    });

    it('teams list does not list sandboxes, and users create refuses a sandbox’s id', async () => {
      const team = await sut.createTeam('Hidden Sandbox Lettings');
      const test = await sut.app.get(ApiKeysService).createKey(team.teamId, null, { test: true });
      const teams = onlyLine(await cli(['teams', 'list'])) as Array<{ teamId: string; name: string }>;
      expect(teams.map((entry) => entry.teamId)).toContain(team.teamId);
      expect(teams.map((entry) => entry.teamId)).not.toContain(test.sandboxTeamId);
      expect(teams.filter((entry) => entry.name.startsWith('Hidden Sandbox Lettings'))).toHaveLength(1);

      const refused = await cli(
        ['users', 'create', '--team', test.sandboxTeamId as string, '--email', 'tester@hidden-sandbox.co.uk'],
        {},
        'a long enough password\n',
      );
      expect(refused.code).toBe(1);
      expect(expectFailure(refused)).toBe('Team not found');
      const { rows } = await db.query('SELECT count(*)::int AS n FROM users WHERE team_id = $1', [test.sandboxTeamId]);
      expect(rows).toEqual([{ n: 0 }]);
    });

    it('keys create --access read_only makes a key that reads but cannot write', async () => {
      const team = expectCreatedKey(await cli(['teams', 'create', '--name', 'Readers Lettings']));
      const key = expectCreatedKey(
        await cli(['keys', 'create', '--team', team.teamId, '--name', 'reports', '--access', 'read_only']),
      );
      await sut
        .http()
        .get('/v1/units')
        .set(...bearer(key.apiKey))
        .expect(200);
      await sut
        .http()
        .post('/v1/landlords')
        .set(...bearer(key.apiKey))
        .send({ name: 'Refused' })
        .expect(403);
      expect(expectFailure(await cli(['keys', 'create', '--team', team.teamId, '--access', 'admin']))).toBe(
        '--access must be read_write or read_only',
      );
      expect(expectFailure(await cli(['keys', 'create', '--team', team.teamId, '--expires', '2001-01-01']))).toBe(
        '--expires must be in the future',
      );
    });
  });
});
