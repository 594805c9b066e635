import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ResponseConformance, type OpenApiDocument, type ReceivedResponse } from './openapi-conformance.js';

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

/**
 * The OpenAPI checker of every e2e response (as `createTestApp`'s agent applies it), for a service reached over the
 * network: built from the document the service at `baseUrl` serves.
 */
export async function servedConformance(baseUrl: string): Promise<ResponseConformance> {
  const response = await fetch(`${baseUrl}/v1/openapi.json`);
  if (!response.ok) throw new Error(`${baseUrl}/v1/openapi.json answered ${response.status}`);
  return new ResponseConformance((await response.json()) as OpenApiDocument);
}

/**
 * `fetch`, with every answer checked against the OpenAPI document (`servedConformance`) before the test reads it.
 * A JSON or text body is read from a clone; a binary one (a download) is left to the test, as supertest leaves it.
 */
export function conformingFetch(conformance: ResponseConformance): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    // Read as text unless it says it is something else (a download's bytes): a body where none is promised is seen.
    const type = response.headers.get('content-type');
    const text = type === null || /json|^text\//i.test(type) ? await response.clone().text() : undefined;
    conformance.assert(method, url, fetchedAnswer(response, text));
    return response;
  };
}

/** A fetched answer, with its body read as `text` (or not read), as the checker reads one. */
export function fetchedAnswer(response: Response, text: string | undefined): ReceivedResponse {
  return { status: response.status, headers: Object.fromEntries(response.headers), text };
}

/**
 * The answers in what a raw HTTP/1.1 connection received (`rawConnection`'s), one after the other, each framed by
 * its Content-Length (a chunked answer is refused: the service frames every answer it sends itself), as the checker
 * reads them.
 */
export function rawAnswersOf(received: string): ReceivedResponse[] {
  const answers: ReceivedResponse[] = [];
  let rest = Buffer.from(received);
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) throw new Error(`not an HTTP answer: ${JSON.stringify(rest.toString().slice(0, 200))}`);
    const [statusLine, ...lines] = rest.subarray(0, headEnd).toString().split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!Number.isInteger(status)) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    if (headers['transfer-encoding']) throw new Error(`a ${headers['transfer-encoding']} answer: ${statusLine}`);
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.subarray(headEnd + 4, headEnd + 4 + length);
    if (body.length !== length) throw new Error(`${statusLine}: ${body.length} of its ${length} bytes`);
    answers.push({ status, headers, text: body.toString() });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return answers;
}

/** The one answer a raw connection received (`rawAnswersOf`). */
export function rawAnswerOf(received: string): ReceivedResponse {
  const answers = rawAnswersOf(received);
  if (answers.length !== 1) throw new Error(`${answers.length} answers where one was expected`);
  return answers[0];
}
