import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Built by the test script (`scripts/ensure-build.mjs`) before Jest starts: the service as `npm start` runs it. */
export const SERVICE_MAIN = fileURLToPath(new URL('../../dist/apps/api/src/main.js', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A port nobody listens on now (taken from the kernel, then let go). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * The built service in a process of its own (`NODE_ENV=development`, logs at info), with `env` on top of this
 * process's environment less `DATABASE_URL` (the caller names the database, or none for the embedded one).
 */
export function spawnService(env: Record<string, string>): ServiceProcess {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.JEST_WORKER_ID;
  const child = spawn(process.execPath, [SERVICE_MAIN], {
    cwd: REPO_ROOT,
    env: { ...inherited, NODE_ENV: 'development', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** A raw HTTP/1.1 connection, for requests whose bytes a test sends in parts; `answer` is all it got, at close. */
export function rawConnection(port: number): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { socket, answer };
}
