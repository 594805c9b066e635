import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AppConfig } from './app-config.js';

/** The secrets the server signs with; each must be the same on every instance. */
export type ServerSecretName = 'DASHBOARD_SECRET' | 'ATTACHMENT_URL_SECRET';

/** Where development keeps the secrets it generated (beside the embedded database's files). */
export const DEVELOPMENT_SECRETS_DIR = '.data/secrets';

/** Drawn once per process for tests: every app of one test process agrees, and nothing is written. */
const TEST_SECRET = randomBytes(32);

/**
 * A signing secret: the environment's when set. Production must set it (`purpose` says what it signs). In
 * development one is generated once and kept in `.data/secrets/<name>` (mode 600), so what it signed — a download
 * URL, a form — still verifies after a restart and on every instance started from the same folder; tests draw one
 * per process.
 */
export function serverSecret(
  config: AppConfig,
  name: ServerSecretName,
  purpose: string,
  folder = DEVELOPMENT_SECRETS_DIR,
): Buffer {
  const configured = config[name];
  if (configured) return Buffer.from(configured);
  if (config.isProduction) {
    throw new Error(
      `${name} must be set in production (at least 32 random characters, the same on every instance): ${purpose}. ` +
        'For example: openssl rand -base64 48',
    );
  }
  if (config.NODE_ENV === 'test') return TEST_SECRET;
  return keptSecret(join(folder, name.toLowerCase()));
}

/** The secret in `file`, made there first when missing; two processes starting at once agree (`wx`). */
function keptSecret(file: string): Buffer {
  try {
    return readSecret(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(48).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readSecret(file);
}

function readSecret(file: string): Buffer {
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds no secret of at least 32 characters: delete it to make one`);
  return Buffer.from(secret);
}
