import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtemp, readdir, readlink, realpath, rm } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPOOL_FILE_PREFIX } from '../apps/api/src/imports/spooled-body.js';
import { createUnit, createWorkOrder } from './factories/work-orders.js';
import type { ResponseConformance } from './support/openapi-conformance.js';
import { rawAnswerOf, rawConnection, servedConformance } from './support/service-process.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

// "Safe under load and bad input": a client may send a big body slowly (an import's rows, a photo), and while it
// arrives the service holds no database connection, so a few slow clients cannot take the pool from everyone else.
// The app gets a pool of two connections, then three imports and three uploads that stop half-way. Other requests
// still answer and no session waits in a transaction; once the bodies are complete, each is taken.

jest.setTimeout(120_000);

const SLOW = 3;
const ROWS = 200;
const CSV =
  'externalRef,addressLine1,city,postcode,country\n' +
  Array.from({ length: ROWS }, (_, index) => `SLOW-${index + 1},${index + 1} Slow Lane,Leeds,LS1 1AA,GB\n`).join('');
const BOUNDARY = 'slow-body-boundary';
const PHOTO = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(256 << 10, 3),
]);
const UPLOAD = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  ),
  PHOTO,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

/** Sends a request's head and the first `sent` bytes of its body; `finish` sends the rest, `answer` is the reply. */
function startSlowly(port: number, team: Team, path: string, type: string, body: Buffer, sent: number, extra = '') {
  const connection = rawConnection(port);
  connection.socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${bearer(team)[1]}\r\nContent-Type: ${type}\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n${extra}\r\n`,
  );
  connection.socket.write(body.subarray(0, sent));
  return {
    path,
    answer: connection.answer,
    finish: () => connection.socket.write(body.subarray(sent)),
    close: () => connection.socket.destroy(),
  };
}

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);

describe('bodies that arrive slowly', () => {
  let sut: TestApp;
  let team: Team;
  let port: number;
  let spoolDir: string;
  /** The served document, which the raw answers here must match as every e2e answer does. */
  let conformance: ResponseConformance;
  let storageDir: string;
  // Closed at the end whatever happened, so the app can close.
  const started: ReturnType<typeof startSlowly>[] = [];
  const importAnswers: ServerResponse[] = [];
  /** Until every import request the server has seen so far has closed its connection (answered, or client gone). */
  const importsSettled = () =>
    until(() => importAnswers.every((response) => response.closed), 'the import requests over');
  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'slow-uploads-'));
    // Its real path: the descriptors' targets are read as such.
    spoolDir = await realpath(await mkdtemp(join(tmpdir(), 'slow-imports-')));
    sut = await createTestApp({ config: { DB_POOL_SIZE: 2, STORAGE_DIR: storageDir, IMPORT_SPOOL_DIR: spoolDir } });
    await sut.app.listen(0, '127.0.0.1');
    const server: Server = sut.app.getHttpServer();
    port = (server.address() as AddressInfo).port;
    conformance = await servedConformance(`http://127.0.0.1:${port}`);
    // Each import's answer as the server sees it: its 'close' marks the end of the request's life there.
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (request.method === 'POST' && request.url?.startsWith('/v1/imports')) importAnswers.push(response);
    });
    team = await sut.createTeam();
  });
  afterAll(async () => {
    for (const body of started) body.close();
    await sut.close();
    await rm(spoolDir, { recursive: true, force: true });
    await rm(storageDir, { recursive: true, force: true });
  });

  const spooled = async (): Promise<string[]> =>
    (await readdir(spoolDir)).filter((name) => name.startsWith(SPOOL_FILE_PREFIX));
  /** This process's open descriptors of spooled bodies (the app runs in it): their files are deleted, not closed. */
  const spoolDescriptors = async (): Promise<string[]> => {
    const targets = await Promise.all(
      (await readdir('/proc/self/fd')).map((fd) => readlink(join('/proc/self/fd', fd)).catch(() => '')),
    );
    return targets.filter((target) => target.startsWith(join(spoolDir, SPOOL_FILE_PREFIX)));
  };

  it('hold no database connection while they arrive, and are taken once complete', async () => {
    const unit = await createUnit(sut, team);
    const workOrder = await createWorkOrder(sut, team, unit.id);
    const csv = Buffer.from(CSV);
    const imports = Array.from({ length: SLOW }, () =>
      startSlowly(port, team, '/v1/imports?resource=units', 'text/csv', csv, csv.length >> 1),
    );
    const uploads = Array.from({ length: SLOW }, () =>
      startSlowly(
        port,
        team,
        `/v1/work-orders/${workOrder.id}/attachments`,
        `multipart/form-data; boundary=${BOUNDARY}`,
        UPLOAD,
        UPLOAD.length >> 1,
      ),
    );
    started.push(...imports, ...uploads);
    // Each is being received: the imports' bodies into their files, the uploads' keys listed for the cleanup (which
    // is committed before their bytes are stored).
    await until(async () => (await spooled()).length === SLOW, 'the imports being received');
    await until(
      async () =>
        (
          await sut.sql<{ n: number }>(
            `SELECT count(*)::int AS n FROM attachment_objects WHERE storage_key LIKE $1 || '/%'`,
            [team.teamId],
          )
        )[0].n === SLOW,
      'the uploads being received',
    );

    const units = await sut
      .http()
      .get('/v1/units')
      .set(...bearer(team));
    expect(units.status).toBe(200);
    // No client session waits in a transaction: one held for a body would stay so until the body ends (a background
    // job's, between two of its statements, passes at once).
    const waiting = async () =>
      (
        await sut.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
              AND state LIKE 'idle in transaction%'`,
        )
      )[0].n;
    await until(async () => (await waiting()) === 0, 'no session waiting in a transaction', 5_000);

    for (const body of [...imports, ...uploads]) body.finish();
    const answers = await Promise.all([...imports, ...uploads].map((body) => body.answer));
    expect(answers.slice(0, SLOW).map(statusOf)).toEqual(Array(SLOW).fill(202));
    expect(answers.slice(SLOW).map(statusOf)).toEqual(Array(SLOW).fill(201));
    [...imports, ...uploads].forEach((body, i) => conformance.assert('POST', body.path, rawAnswerOf(answers[i])));
    // Each import read every row of its body, and its file is gone once answered.
    const listed = await sut
      .http()
      .get('/v1/imports')
      .set(...bearer(team));
    const totals = (listed.body as { data: { totalRows: number }[] }).data.map((item) => item.totalRows);
    expect(totals).toEqual(Array(SLOW).fill(ROWS));
    expect(await spooled()).toEqual([]);
    await until(async () => (await spoolDescriptors()).length === 0, 'the imports’ descriptors closed');
  });

  it('keep nothing of an import whose client goes away half-way, and still answer', async () => {
    const other = await sut.createTeam('Leaves half-way');
    const csv = Buffer.from(CSV);
    const body = startSlowly(port, other, '/v1/imports?resource=units', 'text/csv', csv, csv.length >> 1);
    started.push(body);
    await until(async () => (await spooled()).length === 1, 'the import being received');
    body.close();
    await until(async () => (await spooled()).length === 0, 'its file removed');
    await until(async () => (await spoolDescriptors()).length === 0, 'its descriptor closed');
    const listed = await sut
      .http()
      .get('/v1/imports')
      .set(...bearer(other));
    expect(listed.status).toBe(200);
    expect((listed.body as { pagination: { total: number } }).pagination.total).toBe(0);
  });

  it('leave no file or descriptor behind when a client sends an import whole and leaves at once', async () => {
    const other = await sut.createTeam('Leaves at once');
    const csv = Buffer.from(CSV);
    const seen = importAnswers.length;
    const body = startSlowly(port, other, '/v1/imports?resource=units', 'text/csv', csv, csv.length);
    started.push(body);
    await until(() => importAnswers.length === seen + 1, 'the server seeing the request');
    body.close();
    // Taken or not (depending on whether its rows were being written when the client left), nothing stays open.
    await importsSettled();
    await until(
      async () => (await spooled()).length === 0 && (await spoolDescriptors()).length === 0,
      'no file or descriptor left',
      20_000,
    );
    const units = await sut
      .http()
      .get('/v1/units')
      .set(...bearer(other));
    expect(units.status).toBe(200);
  });

  const postImport = (who: Team, path: string, type: string, body: string | object) =>
    sut
      .http()
      .post(path)
      .set(...bearer(who))
      .set('Content-Type', type)
      .send(body);

  it('refuse an import whose query the route would refuse before its body arrives, and take a spaced resource', async () => {
    const other = await sut.createTeam('Odd queries');
    const csv = Buffer.from(CSV);
    // Half the body sent, and no more: the refusal comes without the rest, and nothing of it was spooled.
    const slow = startSlowly(port, other, '/v1/imports?resource=units&dryRun=maybe', 'text/csv', csv, csv.length >> 1);
    started.push(slow);
    const answer = await slow.answer;
    expect(statusOf(answer)).toBe(400);
    expect(answer).toContain('{"error":"dryRun must be a boolean value"}');
    conformance.assert('POST', slow.path, rawAnswerOf(answer));
    const refused = await postImport(other, '/v1/imports?resource=flats', 'text/csv', CSV);
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toMatch(/^resource must be one of/);
    expect(await spooled()).toEqual([]);
    expect(await spoolDescriptors()).toEqual([]);
    // Query values are trimmed before they are checked: the resource is the same with spaces around it.
    const spaced = await postImport(other, '/v1/imports?resource=%20units%20', 'text/csv', CSV);
    expect(spaced.status).toBe(202);
    expect((spaced.body as { data: { totalRows: number } }).data.totalRows).toBe(ROWS);
    const other415 = await postImport(other, '/v1/imports?resource=units', 'application/json', { rows: [] });
    expect(other415.status).toBe(415);
    expect(await spooled()).toEqual([]);
  });
});
