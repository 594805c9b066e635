import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole schema of the first release. Text columns carry no length limit: the API validates lengths
 * (counting as class-validator does), so the database never refuses a value the API accepted. `team_id` leads every key, index and foreign key so the data can be
 * distributed by team (CONTRACT "Scale-out design"); `teams` and `api_keys` are small reference tables.
 */
export class InitialSchema1763750000000 implements MigrationInterface {
  name = 'InitialSchema1763750000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    // Lets a GIN index lead with team_id (a btree-like column) before the trigram expression.
    await db.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);

    await db.query(`
      CREATE TABLE teams (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        last_work_order_number integer NOT NULL DEFAULT 0,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);

    await db.query(`
      CREATE TABLE api_keys (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text,
        key_hash char(64) NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        last_used_at timestamptz(3),
        revoked_at timestamptz(3),
        PRIMARY KEY (team_id, id)
      )`);
    await db.query(`CREATE UNIQUE INDEX api_keys_key_hash_uq ON api_keys (key_hash)`);
    await db.query(`CREATE UNIQUE INDEX api_keys_id_uq ON api_keys (id)`);

    await db.query(`
      CREATE TABLE contractors (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        company_name text NOT NULL,
        contact_name text NOT NULL,
        email text,
        phone_number text,
        full_address text,
        status varchar(16) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'on_holiday')),
        trades text[] NOT NULL DEFAULT '{}',
        coverage_postcodes text[] NOT NULL DEFAULT '{}',
        certifications jsonb NOT NULL DEFAULT '[]',
        insurance jsonb NOT NULL DEFAULT '[]',
        notes text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id)
      )`);
    await db.query(`CREATE INDEX contractors_team_created_idx ON contractors (team_id, created_at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX contractors_team_status_created_idx ON contractors (team_id, status, created_at DESC, id DESC)`,
    );

    await db.query(`
      CREATE TABLE landlords (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        email text,
        phone_number text,
        full_address text,
        status varchar(16) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
        notes text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id)
      )`);
    await db.query(`CREATE INDEX landlords_team_created_idx ON landlords (team_id, created_at DESC, id DESC)`);

    await db.query(`
      CREATE TABLE units (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        address_line1 text NOT NULL,
        address_line2 text,
        city text NOT NULL,
        county text,
        country text NOT NULL,
        postcode text NOT NULL,
        area text,
        full_address text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id)
      )`);
    await db.query(`CREATE INDEX units_team_created_idx ON units (team_id, created_at DESC, id DESC)`);

    await db.query(`
      CREATE TABLE tenants (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        first_name text NOT NULL,
        last_name text NOT NULL,
        email text,
        phone_number text,
        notes text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id)
      )`);
    await db.query(`CREATE INDEX tenants_team_created_idx ON tenants (team_id, created_at DESC, id DESC)`);

    await db.query(`
      CREATE TABLE tenant_units (
        team_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL,
        unit_id uuid NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (team_id, id),
        UNIQUE (team_id, tenant_id, unit_id),
        FOREIGN KEY (team_id, tenant_id) REFERENCES tenants (team_id, id) ON DELETE CASCADE,
        FOREIGN KEY (team_id, unit_id) REFERENCES units (team_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX tenant_units_team_unit_idx ON tenant_units (team_id, unit_id)`);

    await db.query(`
      CREATE TABLE work_orders (
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        number integer NOT NULL,
        code varchar(20) GENERATED ALWAYS AS ('WO-' || number) STORED,
        title text NOT NULL,
        description text,
        status varchar(16) NOT NULL DEFAULT 'reported'
          CHECK (status IN ('reported', 'in_progress', 'completed', 'cancelled')),
        priority char(1) NOT NULL DEFAULT '2' CHECK (priority IN ('0', '1', '2', '3')),
        availability text,
        self_resolved boolean NOT NULL DEFAULT false,
        resolved_at timestamptz(3),
        intake_channel varchar(32) NOT NULL DEFAULT 'api',
        unit_id uuid NOT NULL,
        tenant_id uuid,
        contractor_id uuid,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (team_id, id),
        UNIQUE (team_id, number),
        FOREIGN KEY (team_id, unit_id) REFERENCES units (team_id, id),
        FOREIGN KEY (team_id, tenant_id) REFERENCES tenants (team_id, id),
        FOREIGN KEY (team_id, contractor_id) REFERENCES contractors (team_id, id)
      )`);
    await db.query(`CREATE INDEX work_orders_team_created_idx ON work_orders (team_id, created_at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX work_orders_team_status_priority_idx ON work_orders (team_id, status, priority, created_at DESC, id DESC)`,
    );
    await db.query(`CREATE INDEX work_orders_team_unit_idx ON work_orders (team_id, unit_id)`);
    await db.query(`CREATE INDEX work_orders_team_tenant_idx ON work_orders (team_id, tenant_id)`);
    await db.query(`CREATE INDEX work_orders_team_contractor_idx ON work_orders (team_id, contractor_id, status)`);

    // Substring search (ILIKE '%…%') is served by trigram indexes on the searched expressions. Fields are
    // joined with the unit separator (chr 31), which a search term may not contain, so no match spans two fields.
    await db.query(`CREATE INDEX contractors_search_trgm ON contractors USING gin (team_id,
      (company_name || chr(31) || contact_name || chr(31) || coalesce(email, '') || chr(31) || coalesce(phone_number, '')) gin_trgm_ops)`);
    await db.query(`CREATE INDEX landlords_search_trgm ON landlords USING gin (team_id,
      (name || chr(31) || coalesce(email, '') || chr(31) || coalesce(phone_number, '')) gin_trgm_ops)`);
    await db.query(`CREATE INDEX units_full_address_trgm ON units USING gin (team_id, full_address gin_trgm_ops)`);
    await db.query(`CREATE INDEX tenants_search_trgm ON tenants USING gin (team_id,
      (first_name || chr(31) || last_name || chr(31) || coalesce(email, '') || chr(31) || coalesce(phone_number, '')) gin_trgm_ops)`);
    await db.query(
      `CREATE INDEX work_orders_search_trgm ON work_orders USING gin (team_id, (title || chr(31) || code) gin_trgm_ops)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'work_orders',
      'tenant_units',
      'tenants',
      'units',
      'landlords',
      'contractors',
      'api_keys',
      'teams',
    ]) {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
    }
    await db.query(`DROP EXTENSION IF EXISTS btree_gin`);
  }
}
