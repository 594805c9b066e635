import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './app-config.js';

const POOLER = 'postgres://app@pgbouncer.internal:6432/portfolio';
const DIRECT = 'postgres://app@db.internal:5432/portfolio';

describe('loadConfig: DB_POOLER and DATABASE_DIRECT_URL', () => {
  it('defaults to none: DATABASE_URL is PostgreSQL itself and nothing else is needed', () => {
    const config = loadConfig({ DATABASE_URL: DIRECT });
    expect(config.DB_POOLER).toBe('none');
    expect(config.DATABASE_DIRECT_URL).toBeUndefined();
  });

  it('takes transaction with both URLs', () => {
    const config = loadConfig({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT, DB_POOLER: 'transaction' });
    expect(config).toMatchObject({ DB_POOLER: 'transaction', DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT });
  });

  it('refuses transaction without DATABASE_DIRECT_URL, naming it', () => {
    expect(() => loadConfig({ DATABASE_URL: POOLER, DB_POOLER: 'transaction' })).toThrow(
      'Invalid configuration: DB_POOLER=transaction requires DATABASE_DIRECT_URL (PostgreSQL itself, for LISTEN/NOTIFY and migrations)',
    );
  });

  it('refuses transaction without DATABASE_URL (the embedded server has no pooler in front)', () => {
    expect(() => loadConfig({ DATABASE_DIRECT_URL: DIRECT, DB_POOLER: 'transaction' })).toThrow(
      'DB_POOLER=transaction requires DATABASE_URL (the pooler)',
    );
  });

  it('refuses any other pooler mode and a DATABASE_DIRECT_URL that is not a postgres:// URL', () => {
    expect(() => loadConfig({ DATABASE_URL: POOLER, DATABASE_DIRECT_URL: DIRECT, DB_POOLER: 'session' })).toThrow(
      'DB_POOLER must be none or transaction',
    );
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'mysql://db.internal/portfolio' })).toThrow(
      'DATABASE_DIRECT_URL must be a postgres:// URL',
    );
  });
});
