import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ManualClock } from '@app/common';
import { ABANDONED_UPLOAD_MS, AttachmentsCleanup, uploadGarbage } from '../apps/api/src/work-orders/index.js';
import { createUnit, createWorkOrder } from './factories/work-orders.js';
import {
  conformingFetch,
  freePort,
  rawConnection,
  servedConformance,
  spawnService,
  type ServiceProcess,
} from './support/service-process.js';
import { createTestApp, createTestDatabase, dropTestDatabase, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

// An upload cut off half-way (CONTRACT "Attachments": nothing lost, nothing left behind): by its client going away,
// and by the service process being killed while the bytes stream to storage. Neither leaves a row; the first leaves
// nothing at all, the second leaves a half-written object that the cleanup removes once the upload is abandoned.

jest.setTimeout(180_000);

const BOUNDARY = 'interrupted-upload-boundary';
/** A PNG signature and 4 MiB after it: the first megabyte is sent, the rest never is. */
const FILE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4 << 20, 7)]);
const PART_HEAD =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="leak.png"\r\n` +
  'Content-Type: image/png\r\n\r\n';
const PART_TAIL = `\r\n--${BOUNDARY}--\r\n`;

/** Sends the request's head and the first megabyte of the file, and keeps the connection open. */
function startUpload(port: number, apiKey: string, workOrderId: string, idempotencyKey?: string) {
  const connection = rawConnection(port);
  const length = Buffer.byteLength(PART_HEAD) + FILE.length + Buffer.byteLength(PART_TAIL);
  connection.socket.write(
    `POST /v1/work-orders/${workOrderId}/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      (idempotencyKey ? `Idempotency-Key: ${idempotencyKey}\r\n` : '') +
      `Authorization: Bearer ${apiKey}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
      `Content-Length: ${length}\r\n\r\n${PART_HEAD}`,
  );
  connection.socket.write(FILE.subarray(0, 1 << 20));
  return connection;
}

/** The files under a team's storage folder (`<attachment id>` when whole, `<attachment id>.partial` while written). */
const filesOf = async (storageDir: string, teamId: string): Promise<string[]> =>
  readdir(join(storageDir, teamId)).catch(() => []);

const partialWritten = (storageDir: string, teamId: string) => async () =>
  (await filesOf(storageDir, teamId)).some((name) => name.endsWith('.partial'));

describe('an upload cut off half-way', () => {
  let storageDir: string;
  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'interrupted-uploads-'));
  });
  afterAll(() => rm(storageDir, { recursive: true, force: true }));

  describe('by its client going away', () => {
    let sut: TestApp;
    beforeAll(async () => {
      sut = await createTestApp({ config: { STORAGE_DIR: join(storageDir, 'client') } });
      await sut.app.listen(0, '127.0.0.1');
    });
    afterAll(() => sut.close());

    it('leaves no row, no object and no entry on the cleanup’s list', async () => {
      const dir = join(storageDir, 'client');
      const team = await sut.createTeam();
      const workOrder = await createWorkOrder(sut, team, (await createUnit(sut, team)).id);
      const { port } = sut.app.getHttpServer().address() as AddressInfo;
      const upload = startUpload(port, team.apiKey, workOrder.id);
      await until(partialWritten(dir, team.teamId), 'the object being written');
      expect(await sut.sql('SELECT reason FROM attachment_objects')).toEqual([{ reason: 'upload' }]);
      // Counted as arriving (the pace of young-generation collections) until it is cut off.
      expect(uploadGarbage.inFlight).toBe(1);

      upload.socket.destroy();
      await until(() => uploadGarbage.inFlight === 0, 'the upload no longer counted as arriving');
      await until(async () => (await filesOf(dir, team.teamId)).length === 0, 'the half-written object removed');
      await until(
        async () => (await sut.sql('SELECT 1 FROM attachment_objects')).length === 0,
        'the upload taken off the cleanup’s list',
      );
      expect(await sut.sql('SELECT id FROM work_order_attachments')).toEqual([]);
      const list = await sut
        .http()
        .get(`/v1/work-orders/${workOrder.id}/attachments`)
        .set('Authorization', `Bearer ${team.apiKey}`);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ data: [] });
    });

    it('stores no answer under its Idempotency-Key: the retry of the whole file runs as a first request', async () => {
      const dir = join(storageDir, 'client');
      const team = await sut.createTeam();
      const workOrder = await createWorkOrder(sut, team, (await createUnit(sut, team)).id);
      const { port } = sut.app.getHttpServer().address() as AddressInfo;
      const upload = startUpload(port, team.apiKey, workOrder.id, 'cut-off-upload');
      await until(partialWritten(dir, team.teamId), 'the object being written');
      upload.socket.destroy();
      await until(async () => (await filesOf(dir, team.teamId)).length === 0, 'the half-written object removed');
      const retry = await sut
        .http()
        .post(`/v1/work-orders/${workOrder.id}/attachments`)
        .set('Authorization', `Bearer ${team.apiKey}`)
        .set('Idempotency-Key', 'cut-off-upload')
        .attach('file', FILE, { filename: 'leak.png', contentType: 'image/png' });
      expect({ status: retry.status, replayed: retry.headers['idempotent-replayed'] }).toEqual({
        status: 201,
        replayed: 'false',
      });
    });

    it('leaves nothing either when the client goes away before its body is read (while the work order is checked)', async () => {
      const dir = join(storageDir, 'client');
      const team = await sut.createTeam();
      const workOrder = await createWorkOrder(sut, team, (await createUnit(sut, team)).id);
      const { port } = sut.app.getHttpServer().address() as AddressInfo;
      // The head and a few bytes, then gone at once: most of these leave while the guard's first statement (the key
      // listed for the cleanup) is on its way, before anything listens to the body. Each must still be settled.
      const gone = Array.from({ length: 10 }, () => {
        const connection = rawConnection(port);
        const length = Buffer.byteLength(PART_HEAD) + FILE.length + Buffer.byteLength(PART_TAIL);
        connection.socket.write(
          `POST /v1/work-orders/${workOrder.id}/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            `Authorization: Bearer ${team.apiKey}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
            `Content-Length: ${length}\r\n\r\n${PART_HEAD.slice(0, 12)}`,
          () => connection.socket.destroy(),
        );
        return connection;
      });
      await until(() => gone.every((connection) => connection.socket.destroyed), 'every client gone');
      await until(
        async () => (await sut.sql('SELECT 1 FROM attachment_objects')).length === 0,
        'every upload taken off the cleanup’s list',
      );
      expect(await filesOf(dir, team.teamId)).toEqual([]);
      expect(await sut.sql('SELECT id FROM work_order_attachments WHERE team_id = $1', [team.teamId])).toEqual([]);
      expect(uploadGarbage.inFlight).toBe(0);
    });
  });

  describe('by the service process being killed', () => {
    let databaseUrl: string;
    let service: ServiceProcess | undefined;
    let sut: TestApp | undefined;
    beforeAll(async () => {
      databaseUrl = await createTestDatabase();
    });
    afterAll(async () => {
      if (service && service.child.exitCode === null && service.child.signalCode === null) {
        service.child.kill('SIGKILL');
      }
      await sut?.close();
      await dropTestDatabase(databaseUrl);
    });

    it('leaves no row; the cleanup removes the half-written object once the upload is abandoned, safely twice', async () => {
      const dir = join(storageDir, 'killed');
      const port = await freePort();
      service = spawnService({ PORT: String(port), DATABASE_URL: databaseUrl, STORAGE_DIR: dir });
      const started = service;
      await until(() => /API key (ppk_\w+)/.test(started.output()), 'the demo key in the start-up lines', 120_000);
      const apiKey = /API key (ppk_\w+)/.exec(started.output())?.[1] ?? '';
      const teamId = /teamId (\S+),/.exec(started.output())?.[1] ?? '';
      const checkedFetch = conformingFetch(await servedConformance(`http://127.0.0.1:${port}`));
      const post = async (path: string, body: object): Promise<{ id: string }> => {
        const response = await checkedFetch(`http://127.0.0.1:${port}/v1/${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { data: { id: string } }).data;
      };
      const unit = await post('units', {
        addressLine1: '1 Cut Off Row',
        city: 'Leeds',
        country: 'UK',
        postcode: 'LS1 1AA',
      });
      const workOrder = await post('work-orders', { title: 'Leak', unitId: unit.id });

      // The demo team's example attachment is stored at start-up; only what this upload writes is looked at.
      const demoFiles = new Set(await filesOf(dir, teamId));
      const uploadFiles = async () => (await filesOf(dir, teamId)).filter((name) => !demoFiles.has(name));
      startUpload(port, apiKey, workOrder.id);
      await until(partialWritten(dir, teamId), 'the object being written');
      started.child.kill('SIGKILL');
      await started.exited;

      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      try {
        const rows = await db.query('SELECT id FROM work_order_attachments WHERE work_order_id = $1', [workOrder.id]);
        expect(rows.rows).toEqual([]);
        expect((await db.query('SELECT reason FROM attachment_objects')).rows).toEqual([{ reason: 'upload' }]);
      } finally {
        await db.end();
      }
      const [partial, ...others] = await uploadFiles();
      expect({ partial, others }).toEqual({ partial: expect.stringMatching(/\.partial$/), others: [] });

      // Another instance's cleanup: an upload younger than the abandonment age may still be streaming elsewhere.
      const clock = new ManualClock(Date.now());
      sut = await createTestApp({ databaseUrl, config: { STORAGE_DIR: dir }, clock });
      const cleanup = sut.app.get(AttachmentsCleanup);
      expect(await cleanup.run()).toBe(0);
      expect(await uploadFiles()).toEqual([partial]);

      clock.advance(ABANDONED_UPLOAD_MS + 60_000);
      expect(await cleanup.run()).toBe(1);
      expect(await uploadFiles()).toEqual([]);
      expect(await filesOf(dir, teamId)).toEqual([...demoFiles]);
      expect(await sut.sql('SELECT 1 FROM attachment_objects')).toEqual([]);
      expect(await cleanup.run()).toBe(0);
    });
  });
});
