#!/usr/bin/env node
// Runs the documentation's command examples against a fresh service: every ```bash block of README.md and
// docs/*.md, in order, one bash session per file (so a block may use the variables an earlier one set), with
// `set -euo pipefail`. Fails on any non-zero exit; every curl must use -f (so a 4xx/5xx fails). A block preceded by
// `<!-- docs-test: skip (reason) -->` is not run (starting the service itself, the test suite, generators).
// The service: `node dist/apps/api/src/main.js` on a free port with a fresh database (a new database on
// DATABASE_URL's server when set, else its own embedded PostgreSQL); its printed demo key is given to the blocks
// as API_KEY, its base URL as API_URL, its database as DATABASE_URL (for the CLI).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP = /<!--\s*docs-test:\s*skip\b[^>]*-->\s*$/;

function blocksOf(path) {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(bash|sh)\s*$/.test(lines[i])) continue;
    const skipped = SKIP.test(lines[i - 1] ?? '') || SKIP.test(lines[i - 2] ?? '');
    const start = i + 1;
    while (i + 1 < lines.length && lines[++i] !== '```');
    if (!skipped) blocks.push({ line: start, text: lines.slice(start, i).join('\n') });
  }
  return blocks;
}

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const files = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((n) => `docs/${n}`),
];
const work = files.map((file) => ({ file, blocks: blocksOf(`${ROOT}${file}`) })).filter((entry) => entry.blocks.length);
for (const { file, blocks } of work) {
  for (const block of blocks) {
    for (const command of block.text.split('\n').filter((line) => /(^|[\s$(|])curl\s/.test(line))) {
      if (!/\bcurl\s.*\s-[A-Za-z]*f[A-Za-z]*(\s|$)/.test(` ${command} `.replace(/\bcurl\s/, 'curl  '))) {
        console.error(`${file}:${block.line}: curl without -f (a 4xx/5xx would pass unnoticed): ${command.trim()}`);
        process.exit(1);
      }
    }
  }
}

const port = await freePort();
let databaseUrl;
let cleanup;
const env = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info', PORT: String(port) };
delete env.API_KEY;
if (process.env.DATABASE_URL) {
  const name = `ppa_docs_${port}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  env.DATABASE_URL = databaseUrl;
  cleanup = async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
} else {
  const pgPort = await freePort();
  const dir = `.data/docs-check-${pgPort}`;
  env.EMBEDDED_PG_PORT = String(pgPort);
  env.EMBEDDED_PG_DIR = dir;
  delete env.DATABASE_URL;
  databaseUrl = `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres`;
  cleanup = async () => rmSync(`${ROOT}${dir}`, { recursive: true, force: true });
}

const service = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
  cwd: ROOT,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
service.stdout.on('data', (chunk) => (output += chunk));
service.stderr.on('data', (chunk) => (output += chunk));
const exited = new Promise((resolve) => service.on('exit', resolve));

let failed = false;
try {
  const deadline = Date.now() + 180_000;
  let key;
  let testKey;
  for (;;) {
    key = /API key (ppk_[0-9A-Za-z]{32,})/.exec(output)?.[1];
    // The demo's test key (docs/test-mode.md), printed beside it.
    testKey = /test key[^\n]*?(ppk_test_[0-9A-Za-z]{32,})/.exec(output)?.[1];
    const up =
      key &&
      testKey &&
      (await globalThis.fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.ok,
        () => false,
      ));
    if (up) break;
    if (service.exitCode !== null || Date.now() > deadline) throw new Error(`the service did not start:\n${output}`);
    await sleep(250);
  }
  const blockEnv = {
    ...process.env,
    API_URL: `http://localhost:${port}/v1`,
    API_KEY: key,
    TEST_API_KEY: testKey,
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'development',
  };
  for (const { file, blocks } of work) {
    const script = ['set -euo pipefail', ...blocks.map((block) => `# ${file}:${block.line}\n${block.text}`)].join('\n');
    const run = spawnSync('bash', ['-c', script], { cwd: ROOT, env: blockEnv, encoding: 'utf8', timeout: 300_000 });
    if (run.status === 0) {
      console.log(`ok   ${file} (${blocks.length} block${blocks.length === 1 ? '' : 's'})`);
    } else {
      failed = true;
      console.error(`FAIL ${file} (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    }
  }
} catch (error) {
  failed = true;
  console.error(error.message);
} finally {
  service.kill('SIGTERM');
  await exited;
  await cleanup();
}
process.exit(failed ? 1 : 0);
