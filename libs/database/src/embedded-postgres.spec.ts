import { describe, expect, it } from '@jest/globals';
import { resolveDatabase } from './embedded-postgres.js';

const EMBEDDED = { EMBEDDED_PG_PORT: 54329, EMBEDDED_PG_DIR: '.data/postgres', EMBEDDED_PG_DATABASE: 'portfolio' };

describe('resolveDatabase with DATABASE_URL', () => {
  it('binds sessions (migrations, LISTEN) to DATABASE_URL when there is no DATABASE_DIRECT_URL', async () => {
    const database = await resolveDatabase({ ...EMBEDDED, DATABASE_URL: 'postgres://app:secret@db.internal:5432/p' });
    expect(database.url).toBe('postgres://app:secret@db.internal:5432/p');
    expect(database.sessionUrl).toBe(database.url);
    expect(database.description).toBe('PostgreSQL at db.internal:5432/p');
  });

  it('binds sessions to DATABASE_DIRECT_URL behind a pooler, and says where both are without credentials', async () => {
    const database = await resolveDatabase({
      ...EMBEDDED,
      DATABASE_URL: 'postgres://app:secret@pgbouncer.internal:6432/p',
      DATABASE_DIRECT_URL: 'postgres://app:secret@db.internal:5432/p',
    });
    expect(database.url).toBe('postgres://app:secret@pgbouncer.internal:6432/p');
    expect(database.sessionUrl).toBe('postgres://app:secret@db.internal:5432/p');
    expect(database.description).toBe(
      'PostgreSQL at pgbouncer.internal:6432/p (pooled), PostgreSQL at db.internal:5432/p (sessions)',
    );
  });
});
