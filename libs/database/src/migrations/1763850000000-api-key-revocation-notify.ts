import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Announces every API key revocation (or deletion) on the `api_key_revoked` channel, whoever makes it — the
 * CLI, another instance, or SQL by hand — so every instance drops the key from its cache at once.
 */
export class ApiKeyRevocationNotify1763850000000 implements MigrationInterface {
  name = 'ApiKeyRevocationNotify1763850000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION api_keys_notify_revoked() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('api_key_revoked', OLD.key_hash);
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER api_keys_notify_revoked
      AFTER UPDATE OF revoked_at, key_hash OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION api_keys_notify_revoked()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER IF EXISTS api_keys_notify_revoked ON api_keys`);
    await db.query(`DROP FUNCTION IF EXISTS api_keys_notify_revoked()`);
  }
}
