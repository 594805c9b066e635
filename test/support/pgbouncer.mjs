// PgBouncer in transaction mode in front of the test PostgreSQL server, for `npm run test:pooler` (plain JavaScript:
// Jest loads global setup outside its ESM runtime).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { freePort } from '../../scripts/lib/local-server.mjs';

/** Debian's package puts it in /usr/sbin, which is not on every user's PATH. */
function pgbouncerBinary() {
  if (process.env.PGBOUNCER_PATH) return process.env.PGBOUNCER_PATH;
  return ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'].find((path) => existsSync(path));
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** An ini value in quotes where it may hold spaces or quotes (PgBouncer's connection-string syntax). */
const quoted = (value) => `'${String(value).replace(/'/g, "''")}'`;

/**
 * Starts PgBouncer on a free port in front of `serverUrl`'s server: `pool_mode = transaction`, every database
 * name passed through (`* =`, so each spec's own database works), clients trusted (the auth file names the
 * server's user), the server reached with that user and password. Answers the pooler's URL (no database) and stop().
 * PgBouncer refuses to run as root; as root it is started with `-u postgres` (the user Debian's PostgreSQL runs as).
 */
export async function startPgBouncer(serverUrl) {
  const binary = pgbouncerBinary();
  if (!binary)
    throw new Error('pgbouncer is not installed (Debian: apt-get install -y pgbouncer), or set PGBOUNCER_PATH');
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'ppa-pgbouncer-'));
  // Readable by the user PgBouncer switches to.
  await chmod(dir, 0o755);
  const target = [
    `host=${server.hostname || '127.0.0.1'}`,
    `port=${server.port || 5432}`,
    `user=${quoted(user)}`,
    ...(password ? [`password=${quoted(password)}`] : []),
  ].join(' ');
  const ini = [
    '[databases]',
    `* = ${target}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'pool_mode = transaction',
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    // The console (database `pgbouncer`), where dropTestDatabase closes a database's server connections (KILL).
    `admin_users = ${user}`,
    'max_client_conn = 2000',
    // Fewer server connections than the instances' pools hold together: transactions share them, as in production.
    'default_pool_size = 8',
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n');
  await writeFile(join(dir, 'pgbouncer.ini'), ini, { mode: 0o644 });
  await writeFile(join(dir, 'users.txt'), `"${user.replace(/"/g, '""')}" ""\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; !(await accepts(port)); attempt++) {
    if (child.exitCode !== null || attempt > 100) {
      await stop();
      throw new Error(`pgbouncer did not start:\n${output}`);
    }
    await sleep(50);
  }
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  url.pathname = '/';
  return { url: url.toString(), stop };
}
