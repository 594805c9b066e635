import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { AppConfig, markTestMode, requestIdFor, setProtectiveHeaders, STARTING_ERROR, type Logger } from '@app/common';
import { AccountsService } from '../dashboard/index.js';
import { ApiKeysService, FIRST_KEY_NAME } from '../api-keys/index.js';
import { API_PREFIX, DASHBOARD_PATH, DOCS_PATH, HEALTH_PATHS, METRICS_PATH, OPENAPI_PATH } from './configure-app.js';
import { createDemoRecords } from '../demo-records.js';
import { SandboxService } from '../sandbox/index.js';

/** The account made on an empty database outside production, beside the demo key. */
export const DEMO_EMAIL = 'demo@example.com';

/** A start-up failure whose message says all an operator needs: printed as is, without a stack trace. */
export class StartUpError extends Error {}

function listenFailure(error: NodeJS.ErrnoException, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new StartUpError(`Port ${port} is already in use; set PORT to a free port or stop what is using it`);
    case 'EACCES':
      return new StartUpError(`Port ${port} needs more privileges than this process has; set PORT to 1024 or above`);
    default:
      return error;
  }
}

const STARTING = JSON.stringify({ error: STARTING_ERROR });

/**
 * The answer to every request between binding the port and `open()`: 503, so no probe says ready too early. It
 * carries what every answer does (the request id, the test-mode mark, no-store and nosniff), though no middleware ran.
 */
function answerStarting(request: IncomingMessage, response: ServerResponse): void {
  requestIdFor(request, response);
  markTestMode(request, response);
  setProtectiveHeaders(response);
  response.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(STARTING),
    'Retry-After': '1',
  });
  response.end(STARTING);
}

/**
 * Binds the port. Nest's own `listen()` would log the raw error before rejecting; this rejects with one clear
 * message instead, and nothing claims the service started before the port is bound. Until the returned `open()`
 * is called, every request (the health probes too) is answered 503 "starting": the first-run lines are printed
 * in between, so nothing reports ready before a person has the demo key.
 */
export async function listen(app: NestExpressApplication, port: number): Promise<() => void> {
  const server: Server = app.getHttpServer();
  const handlers = server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', answerStarting);
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException): void => reject(listenFailure(error, port));
    server.once('error', fail);
    server.listen(port, () => {
      server.off('error', fail);
      resolve();
    });
  });
  return () => {
    server.off('request', answerStarting);
    for (const handler of handlers) server.on('request', handler);
  };
}

export function baseUrlOf(config: AppConfig): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

export function announceMigrations(logger: Logger, applied: string[]): void {
  logger.info(
    applied.length === 0
      ? 'Migrations: none pending, the schema is up to date'
      : `Migrations: applied ${applied.length} (${applied.join(', ')})`,
  );
}

/** The lines that tell a person where everything is, written once the port is bound. */
export function announceListening(logger: Logger, config: AppConfig): void {
  const base = baseUrlOf(config);
  logger.info({ port: config.PORT }, `Listening on port ${config.PORT}: API ${base}/${API_PREFIX}`);
  logger.info(`Dashboard (sign up, API keys, usage): ${base}/${DASHBOARD_PATH}`);
  logger.info(`Docs: Swagger UI ${base}/${DOCS_PATH}, OpenAPI ${base}/${OPENAPI_PATH}`);
  const probes = HEALTH_PATHS.map((path) => `${base}/${path}`).join(' and ');
  const metrics = config.METRICS_ENABLED ? `${base}/${METRICS_PATH}` : 'off (METRICS_ENABLED=false)';
  logger.info(`Health: ${probes}; metrics: ${metrics}`);
}

/** Where the first-run block goes as plain lines: the terminal, when one is attached (`process.stdout.isTTY`). */
export interface Terminal {
  write(text: string): unknown;
}

/**
 * Outside production, an empty database gets a demo team, its API key and a dashboard account, and they are
 * printed: the key and the password are shown only here, so these lines are written even when `LOG_LEVEL` is
 * `warn` or `error` (not when it is `silent`). With a `terminal` (a person is watching), they are printed there as
 * plain lines to copy from, and the log says only that they were; without one (piped to a log collector), they
 * are JSON log lines like the rest. Later starts print where the demo account is and how to get in.
 */
export async function createDemoTeamIfEmpty(
  app: NestExpressApplication,
  config: AppConfig,
  logger: Logger,
  terminal?: Terminal,
): Promise<void> {
  if (config.isProduction) return;
  const out =
    logger.isLevelEnabled('info') || config.LOG_LEVEL === 'silent' ? logger : logger.child({}, { level: 'info' });
  const dashboard = `${baseUrlOf(config)}/${DASHBOARD_PATH}`;
  const keys = app.get(ApiKeysService);
  if ((await keys.countTeams()) > 0) {
    out.info(
      `Dashboard: ${dashboard} (sign up for a new account there; the demo account ${DEMO_EMAIL}, when this ` +
        "database's first start made it, had its password printed then; or: npm run --silent cli -- teams list, then " +
        'npm run --silent cli -- users create --team TEAM_ID --email you@example.com, with the password on standard input)',
    );
    return;
  }
  const demo = await keys.createTeam('Demo team');
  // The documented examples' records, under their example ids: Swagger UI's try-it-out works as pre-filled.
  await createDemoRecords(app, demo);
  // A test key too, its sandbox filled with the sample portfolio: a newcomer's first curl shows a portfolio.
  const test = await keys.createKey(demo.teamId, FIRST_KEY_NAME, { test: true });
  const sandboxTeamId = test.sandboxTeamId as string;
  const testAuthor = { type: 'api_key' as const, id: test.apiKeyId, name: FIRST_KEY_NAME };
  await app.get(SandboxService).resetTeam(sandboxTeamId, testAuthor, true);
  const password = randomBytes(12).toString('base64url');
  await app.get(AccountsService).createUser(demo.teamId, DEMO_EMAIL, password);
  const api = `${baseUrlOf(config)}/${API_PREFIX}`;
  if (terminal && config.LOG_LEVEL !== 'silent') {
    terminal.write(
      [
        '',
        'Created a demo team on this empty database. The key and the password are shown only now:',
        '',
        `  API key     ${demo.apiKey}`,
        `  Team id     ${demo.teamId}`,
        `  Test key    ${test.apiKey}  (test mode: a sandbox with sample data)`,
        `  Dashboard   ${dashboard}`,
        `  Email       ${DEMO_EMAIL}`,
        `  Password    ${password}`,
        '',
        'Try it:',
        '',
        `  export API_KEY=${demo.apiKey}`,
        `  curl -H "Authorization: Bearer $API_KEY" ${api}/units`,
        `  curl -H "Authorization: Bearer ${test.apiKey}" ${api}/work-orders`,
        '',
        '',
      ].join('\n'),
    );
    out.info(
      { teamId: demo.teamId },
      `Created a demo team (teamId ${demo.teamId}) and the dashboard account ${DEMO_EMAIL}; ` +
        'their API key and password were printed above, on the terminal',
    );
    return;
  }
  out.info(
    { teamId: demo.teamId },
    `Created a demo team on this empty database: teamId ${demo.teamId}, API key ${demo.apiKey} ` +
      `(shown once; only its hash is stored). Try: curl -H 'Authorization: Bearer ${demo.apiKey}' ` +
      `${api}/contractors`,
  );
  out.info(
    { teamId: demo.teamId, sandboxTeamId },
    `Demo test key (test mode: the team's sandbox, filled with sample data): ${test.apiKey} (shown once). Try: ` +
      `curl -H 'Authorization: Bearer ${test.apiKey}' ${api}/work-orders`,
  );
  out.info(
    { teamId: demo.teamId },
    `Demo dashboard account: sign in at ${dashboard} with email ${DEMO_EMAIL} and password ${password} ` +
      '(shown once; only a salted hash is stored)',
  );
}
