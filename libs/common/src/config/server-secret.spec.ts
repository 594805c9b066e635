import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config.js';
import { serverSecret } from './server-secret.js';

const configOf = (env: Record<string, string>) => loadConfig(env);

describe('server secrets', () => {
  it('uses the environment’s secret when set', () => {
    const config = configOf({ NODE_ENV: 'production', DASHBOARD_SECRET: 'd'.repeat(32) });
    expect(serverSecret(config, 'DASHBOARD_SECRET', 'it signs forms').toString()).toBe('d'.repeat(32));
  });

  it('refuses to start in production without one, naming the variable and its purpose', () => {
    const config = configOf({ NODE_ENV: 'production', DASHBOARD_SECRET: 'd'.repeat(32) });
    expect(() => serverSecret(config, 'ATTACHMENT_URL_SECRET', 'it signs download URLs')).toThrow(
      /ATTACHMENT_URL_SECRET must be set in production .*it signs download URLs/,
    );
  });

  it('in development, generates one once and keeps it (mode 600), so a restart signs alike', () => {
    const folder = mkdtempSync(join(tmpdir(), 'secrets-'));
    const config = configOf({ NODE_ENV: 'development' });
    const first = serverSecret(config, 'ATTACHMENT_URL_SECRET', 'download URLs', folder);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(serverSecret(config, 'ATTACHMENT_URL_SECRET', 'download URLs', folder).equals(first)).toBe(true);
    const file = join(folder, 'attachment_url_secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(serverSecret(config, 'DASHBOARD_SECRET', 'forms', folder).equals(first)).toBe(false);
  });

  it('refuses a kept file that holds no real secret', () => {
    const folder = mkdtempSync(join(tmpdir(), 'secrets-'));
    writeFileSync(join(folder, 'dashboard_secret'), 'short\n');
    expect(() => serverSecret(configOf({ NODE_ENV: 'development' }), 'DASHBOARD_SECRET', 'forms', folder)).toThrow(
      /holds no secret of at least 32 characters/,
    );
  });

  it('in tests, draws one per process and writes nothing', () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'secrets-')), 'never-made');
    const config = configOf({ NODE_ENV: 'test' });
    const secret = serverSecret(config, 'DASHBOARD_SECRET', 'forms', folder);
    expect(serverSecret(config, 'ATTACHMENT_URL_SECRET', 'download URLs', folder).equals(secret)).toBe(true);
    expect(() => statSync(folder)).toThrow();
  });
});
