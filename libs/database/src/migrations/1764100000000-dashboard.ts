import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The developer dashboard: people (users) who sign in to a team, their sessions, failed sign-ins (throttling),
 * key access and expiry (read-only keys, expiring keys, rolled keys with a grace period), and key usage (daily
 * counts per status class and the last requests). `users` and `dashboard_sessions` are small reference-like
 * tables (an email is unique across teams, because sign-in starts from the email alone); the usage tables lead
 * with `team_id` like every team-owned table.
 */
export class Dashboard1764100000000 implements MigrationInterface {
  name = 'Dashboard1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE api_keys
        ADD COLUMN access text NOT NULL DEFAULT 'read_write' CHECK (access IN ('read_write', 'read_only')),
        ADD COLUMN expires_at timestamptz(3),
        ADD COLUMN prefix text,
        ADD COLUMN replaced_by uuid`);
    // Expiry and access are cached with the key like revocation: every instance must hear of a change at once.
    await db.query(`DROP TRIGGER api_keys_notify_revoked ON api_keys`);
    await db.query(`
      CREATE TRIGGER api_keys_notify_revoked
      AFTER UPDATE OF revoked_at, key_hash, expires_at, access OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION api_keys_notify_revoked()`);

    await db.query(`
      CREATE TABLE users (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        email text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id)
      )`);
    await db.query(`CREATE UNIQUE INDEX users_email_uq ON users (lower(email))`);
    await db.query(`CREATE UNIQUE INDEX users_id_uq ON users (id)`);

    await db.query(`
      CREATE TABLE dashboard_sessions (
        id_hash char(64) PRIMARY KEY,
        team_id uuid NOT NULL,
        user_id uuid NOT NULL,
        csrf_token text NOT NULL,
        created_at timestamptz(3) NOT NULL,
        last_seen_at timestamptz(3) NOT NULL,
        FOREIGN KEY (team_id, user_id) REFERENCES users (team_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX dashboard_sessions_last_seen_idx ON dashboard_sessions (last_seen_at)`);

    await db.query(`
      CREATE TABLE sign_in_failures (
        email text NOT NULL,
        failed_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX sign_in_failures_email_idx ON sign_in_failures (email, failed_at)`);

    await db.query(`
      CREATE TABLE api_key_usage_daily (
        team_id uuid NOT NULL,
        api_key_id uuid NOT NULL,
        day date NOT NULL,
        status_class text NOT NULL CHECK (status_class IN ('2xx-3xx', '4xx', '429', '5xx')),
        requests bigint NOT NULL,
        PRIMARY KEY (team_id, api_key_id, day, status_class),
        FOREIGN KEY (team_id, api_key_id) REFERENCES api_keys (team_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX api_key_usage_daily_day_idx ON api_key_usage_daily (day)`);

    await db.query(`
      CREATE TABLE api_request_log (
        team_id uuid NOT NULL,
        id bigint GENERATED ALWAYS AS IDENTITY,
        api_key_id uuid NOT NULL,
        at timestamptz(3) NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        status smallint NOT NULL,
        duration_ms integer NOT NULL,
        PRIMARY KEY (team_id, id),
        FOREIGN KEY (team_id, api_key_id) REFERENCES api_keys (team_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX api_request_log_recent_idx ON api_request_log (team_id, at DESC, id DESC)`);
    await db.query(`CREATE INDEX api_request_log_at_idx ON api_request_log (at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE api_request_log`);
    await db.query(`DROP TABLE api_key_usage_daily`);
    await db.query(`DROP TABLE sign_in_failures`);
    await db.query(`DROP TABLE dashboard_sessions`);
    await db.query(`DROP TABLE users`);
    await db.query(`DROP TRIGGER api_keys_notify_revoked ON api_keys`);
    await db.query(`
      CREATE TRIGGER api_keys_notify_revoked
      AFTER UPDATE OF revoked_at, key_hash OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION api_keys_notify_revoked()`);
    await db.query(`
      ALTER TABLE api_keys DROP COLUMN access, DROP COLUMN expires_at, DROP COLUMN prefix, DROP COLUMN replaced_by`);
  }
}
