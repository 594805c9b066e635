import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { AttachmentsCleanup, ObjectStorage, uploadGarbage } from '../apps/api/src/work-orders/index.js';
import { createUnit, createWorkOrder } from './factories/work-orders.js';
import { expectError, UUID } from './support/assertions.js';
import { STORAGE_DRIVERS, type TestStore } from './support/storage-drivers.js';
import { bearer, createTestApp, type Team, type TestApp } from './support/test-app.js';
import { until } from './support/until.js';

// Attachments (CONTRACT "Attachments (photos and documents)") on each storage driver (`local` in a temporary folder,
// `s3` against s3rver, a real S3-compatible server started here): each rule over HTTP, the store checked around the
// driver (the folder's files, the bucket's listing), and the cleanup that removes objects no row points at.

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const PDF = Buffer.from('%PDF-1.7\n% a quote for the new tap\n%%EOF\n');

interface Attachment {
  id: string;
  noteId: string | null;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  description: string | null;
  downloadUrl: string;
  downloadUrlExpiresAt: string;
}

describe.each(STORAGE_DRIVERS)('work order attachments (%s storage)', (_driver, startStore) => {
  let sut: TestApp;
  let team: Team;
  let other: Team;
  let workOrderId: string;
  let store: TestStore;

  beforeAll(async () => {
    store = await startStore();
    sut = await createTestApp({ config: store.config });
    team = await sut.createTeam('Attachments team');
    other = await sut.createTeam('Other team');
    workOrderId = await newWorkOrder();
  });
  afterAll(async () => {
    await sut.close();
    await store.close();
  });

  async function newWorkOrder(who: Team = team): Promise<string> {
    return (await createWorkOrder(sut, who, (await createUnit(sut, who)).id)).id;
  }
  const pathOf = (id: string) => `/v1/work-orders/${id}/attachments`;
  const upload = (
    file: Buffer | undefined,
    options: { name?: string; type?: string; fields?: Record<string, string>; id?: string; who?: Team } = {},
  ) => {
    let request = sut
      .http()
      .post(pathOf(options.id ?? workOrderId))
      .set(...bearer(options.who ?? team));
    for (const [name, value] of Object.entries(options.fields ?? {})) request = request.field(name, value);
    if (file) {
      request = request.attach('file', file, {
        filename: options.name ?? 'photo.png',
        contentType: options.type ?? 'application/octet-stream',
      });
    }
    return request;
  };
  const objectCount = async (): Promise<number> => (await store.keys()).length;

  it('stores a PNG by its bytes, with its hash, size and a working signed URL', async () => {
    const response = await upload(PNG, { name: '../../etc/leak.png', fields: { description: ' Under the sink ' } });
    expect(response.status).toBe(201);
    const attachment = (response.body as { data: Attachment }).data;
    expect(attachment).toMatchObject({
      id: expect.stringMatching(UUID),
      noteId: null,
      fileName: 'leak.png',
      contentType: 'image/png',
      size: PNG.length,
      sha256: createHash('sha256').update(PNG).digest('hex'),
      description: 'Under the sink',
    });
    const url = new URL(attachment.downloadUrl);
    const download = await sut
      .http()
      .get(url.pathname + url.search)
      .buffer(true);
    expect(download.status).toBe(200);
    expect(Buffer.compare(download.body as Buffer, PNG)).toBe(0);
    expect(download.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(PNG.length),
      'x-content-type-options': 'nosniff',
    });
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="leak.png"/);

    const tampered = await sut.http().get(url.pathname + url.search.replace(/expires=\d/, 'expires=9'));
    expectError(tampered, 403);
    const withKey = await sut
      .http()
      .get(`${pathOf(workOrderId)}/${attachment.id}/content`)
      .set(...bearer(team))
      .buffer(true);
    expect(withKey.status).toBe(200);
    expect(Buffer.compare(withKey.body as Buffer, PNG)).toBe(0);

    expect(
      (
        await sut
          .http()
          .delete(`${pathOf(workOrderId)}/${attachment.id}`)
          .set(...bearer(team))
      ).status,
    ).toBe(204);
    expectError(await sut.http().get(url.pathname + url.search), 403);
  });

  it('its ETag names the record, not the signed URL: If-None-Match and If-Match hold while it is unchanged', async () => {
    const created = await upload(PNG, { name: 'tag.png' });
    const { id } = (created.body as { data: Attachment }).data;
    const one = `${pathOf(workOrderId)}/${id}`;
    const read = await sut
      .http()
      .get(one)
      .set(...bearer(team));
    const etag = read.headers.etag;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(created.headers.etag).toBe(etag);
    // A later second and another host: another downloadUrl and expiry, the same attachment and the same ETag.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await sut
      .http()
      .get(one)
      .set('Host', 'files.example.test')
      .set(...bearer(team));
    expect((later.body as { data: Attachment }).data.downloadUrl).not.toBe(
      (read.body as { data: Attachment }).data.downloadUrl,
    );
    expect(later.headers.etag).toBe(etag);
    const notModified = await sut
      .http()
      .get(one)
      .set('If-None-Match', etag)
      .set(...bearer(team));
    expect(notModified.status).toBe(304);
    expect(notModified.headers.etag).toBe(etag);

    const stale = await sut
      .http()
      .delete(one)
      .set('If-Match', '"AAAAAAAAAAAAAAAAAAAAAAAAAAA"')
      .set(...bearer(team));
    expectError(stale, 412);
    const deleted = await sut
      .http()
      .delete(one)
      .set('If-Match', etag)
      .set(...bearer(team));
    expect(deleted.status).toBe(204);
  });

  it('keeps a UTF-8 file name as sent, and downloads it under that name', async () => {
    // As curl and browsers send it: `filename="café.png"` in raw UTF-8, no `filename*`.
    const response = await upload(PNG, { name: 'café.png' });
    expect(response.status).toBe(201);
    const attachment = (response.body as { data: Attachment }).data;
    expect(attachment.fileName).toBe('café.png');
    const url = new URL(attachment.downloadUrl);
    const download = await sut.http().get(url.pathname + url.search);
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`,
    );
  });

  it('keeps a legacy form’s Windows-1252 file name as meant, and refuses a description that is not UTF-8', async () => {
    const boundary = 'legacy-form';
    const body = (description: string, fileName: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\n`),
        Buffer.from(description, 'latin1'),
        Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
        fileName,
        Buffer.from('"\r\nContent-Type: image/png\r\n\r\n'),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const send = (bytes: Buffer) =>
      sut
        .http()
        .post(pathOf(workOrderId))
        .set(...bearer(team))
        .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
        .send(bytes);
    const before = await objectCount();
    // "Café" in Latin-1: stored before as "Caf\uFFFD", the text lost unseen.
    const refused = await send(body('Caf\xe9 ceiling', Buffer.from('photo.png')));
    expect(expectError(refused, 400)).toBe(
      'description must be UTF-8 text (its bytes are not: read so, they were U+FFFD)',
    );
    expect(await objectCount()).toBe(before);
    const stored = await send(body('Ceiling', Buffer.from('Caf\xe9 \x80.png', 'latin1')));
    expect(stored.status).toBe(201);
    expect((stored.body as { data: Attachment }).data.fileName).toBe('Café €.png');
  });

  it('answers 403 with the one error text for any URL not exactly as signed, never 400', async () => {
    const { downloadUrl } = ((await upload(PNG, { name: 'signed.png' })).body as { data: Attachment }).data;
    const url = new URL(downloadUrl);
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    const wrong = expectError(await sut.http().get(`${url.pathname}?expires=${expires}&signature=x${signature}`), 403);
    for (const query of [
      `expires=${expires}x&signature=${signature}`,
      `expires=${expires}&signature=${signature}%2B%2F`,
      `expires=${expires}`,
      `signature=${signature}`,
      `expires=${expires}&signature=${signature}&download=1`,
      `expires=${expires}&expires=${expires}&signature=${signature}`,
      // The same second, not as the API wrote it.
      `expires=0${expires}&signature=${signature}`,
      `expires=%2B${expires}&signature=${signature}`,
      '',
    ]) {
      const response = await sut.http().get(`${url.pathname}?${query}`);
      expect({ query, error: expectError(response, 403) }).toEqual({ query, error: wrong });
    }
    expectError(await sut.http().get(`/v1/attachment-downloads/not-a-team/not-an-id?${url.search.slice(1)}`), 403);
    expect((await sut.http().get(url.pathname + url.search)).status).toBe(200);
  });

  it('takes a file of exactly 10 MiB, and refuses one byte more', async () => {
    const largest = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 - PDF.length, 1)]);
    const response = await upload(largest, { name: 'survey.pdf', id: await newWorkOrder() });
    expect(response.status).toBe(201);
    expect((response.body as { data: Attachment }).data).toMatchObject({ size: 10 * 1024 * 1024 });
    expectError(await upload(Buffer.concat([largest, Buffer.from([1])])), 413);
  });

  it('refuses what it must, storing nothing', async () => {
    const before = await objectCount();
    expectError(await upload(Buffer.from('<html><script>alert(1)</script>')), 415);
    expectError(await upload(PNG, { type: 'application/pdf' }), 415);
    expect(await upload(PNG, { type: 'image/png' })).toHaveProperty('status', 201);
    expectError(await upload(undefined, { fields: { description: 'no file' } }), 400);
    expectError(await upload(PNG, { fields: { noteId: 'not-a-uuid' } }), 400);
    expectError(await upload(PNG, { fields: { noteId: '00000000-0000-4000-8000-000000000000' } }), 400);
    expectError(await upload(PNG, { fields: { description: 'x'.repeat(501) } }), 400);
    expect(expectError(await upload(PNG, { fields: { description: 'a\u0000b' } }), 400)).toBe(
      'description must not contain NUL characters',
    );
    // The same field twice: which one was meant is a guess, so neither is taken.
    const twice = await sut
      .http()
      .post(pathOf(workOrderId))
      .set(...bearer(team))
      .field('description', 'first')
      .field('description', 'second')
      .attach('file', PNG, { filename: 'photo.png' });
    expect(expectError(twice, 400)).toBe('description must be sent once');
    // The file's bytes sent as a text field (no file name): said so, not "file is required".
    // (Its contents over the fields' 16 KiB, as a real file's would be: still said so.)
    const asText = await sut
      .http()
      .post(pathOf(workOrderId))
      .set(...bearer(team))
      .field('file', 'not a file '.repeat(2_000));
    expect(expectError(asText, 400)).toBe('file must be sent as a file: a part named file with a filename');
    const proto = await sut
      .http()
      .post(pathOf(workOrderId))
      .set(...bearer(team))
      .field('__proto__', 'x')
      .attach('file', PNG, { filename: 'photo.png' });
    expect(expectError(proto, 400)).toMatch(/^Unknown field __proto__/);
    const json = await sut
      .http()
      .post(pathOf(workOrderId))
      .set(...bearer(team))
      .send({ file: 'x' });
    expectError(json, 415);
    const large = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]);
    expect(expectError(await upload(large), 413)).toMatch(/10 MiB/);
    expect(await objectCount()).toBe(before + 1);
    // The 10 MiB one had sent its first parts to S3: the refusal aborted that multipart upload.
    expect(await store.pending()).toEqual([]);
    expect(await sut.sql('SELECT * FROM attachment_objects WHERE reason = $1', ['upload'])).toEqual([]);
    // Every file part, refused or not, stopped counting as arriving (the pace of young-generation collections).
    expect(uploadGarbage.inFlight).toBe(0);
  });

  it('fills the note’s attachmentIds, and keeps the attachment when the note goes', async () => {
    const note = await sut
      .http()
      .post(`/v1/work-orders/${workOrderId}/notes`)
      .set(...bearer(team))
      .send({ text: 'Quote' });
    const noteId = (note.body as { data: { id: string } }).data.id;
    const first = (await upload(PDF, { fields: { noteId } })).body as { data: Attachment };
    const second = (await upload(PNG, { fields: { noteId } })).body as { data: Attachment };
    const read = await sut
      .http()
      .get(`/v1/work-orders/${workOrderId}/notes/${noteId}`)
      .set(...bearer(team));
    expect((read.body as { data: { attachmentIds: string[] } }).data.attachmentIds).toEqual([
      first.data.id,
      second.data.id,
    ]);
    await sut
      .http()
      .delete(`/v1/work-orders/${workOrderId}/notes/${noteId}`)
      .set(...bearer(team))
      .expect(204);
    const after = await sut
      .http()
      .get(`${pathOf(workOrderId)}/${first.data.id}`)
      .set(...bearer(team));
    expect((after.body as { data: Attachment }).data.noteId).toBeNull();
  });

  it('lists oldest first, shows another team nothing, and writes history entries', async () => {
    const id = await newWorkOrder();
    const a = ((await upload(PNG, { id })).body as { data: Attachment }).data;
    const b = ((await upload(PDF, { id })).body as { data: Attachment }).data;
    const list = await sut
      .http()
      .get(pathOf(id))
      .set(...bearer(team));
    expect((list.body as { data: Attachment[] }).data.map((x) => x.id)).toEqual([a.id, b.id]);
    expectError(
      await sut
        .http()
        .get(pathOf(id))
        .set(...bearer(other)),
      404,
    );
    expectError(
      await sut
        .http()
        .get(`${pathOf(id)}/${a.id}`)
        .set(...bearer(other)),
      404,
    );
    expectError(await upload(PNG, { id, who: other }), 404);
    await sut
      .http()
      .delete(`${pathOf(id)}/${a.id}`)
      .set(...bearer(team))
      .expect(204);
    const history = await sut
      .http()
      .get(`/v1/work-orders/${id}/history`)
      .set(...bearer(team));
    const entries = (history.body as { data: Array<{ type: string; subjectId: string | null }> }).data;
    expect(entries.slice(0, 3).map((entry) => [entry.type, entry.subjectId])).toEqual([
      ['attachment_deleted', a.id],
      ['attachment_added', b.id],
      ['attachment_added', a.id],
    ]);
  });

  it('holds at most 100 per work order', async () => {
    const id = await newWorkOrder();
    await upload(PNG, { id }).expect(201);
    const [{ key }] = await sut.sql<{ key: string }>(
      'SELECT storage_key AS key FROM work_order_attachments WHERE work_order_id = $1',
      [id],
    );
    await sut.sql(
      `INSERT INTO work_order_attachments (team_id, work_order_id, file_name, content_type, size, sha256, storage_key, created_by)
       SELECT team_id, work_order_id, file_name, content_type, size, sha256, storage_key, created_by
         FROM work_order_attachments, generate_series(1, 98) WHERE storage_key = $1`,
      [key],
    );
    // Two uploads at once for the last place: the work order's lock lets one through, the other is refused.
    const statuses = (await Promise.all([upload(PNG, { id }), upload(PDF, { id })])).map((answer) => answer.status);
    expect(statuses.sort()).toEqual([201, 409]);
    expectError(await upload(PNG, { id }), 409);
    const [{ count }] = await sut.sql<{ count: number }>(
      'SELECT count(*)::int AS count FROM work_order_attachments WHERE work_order_id = $1',
      [id],
    );
    expect(count).toBe(100);
  });

  it('the cleanup removes objects without a committed row and those of a deleted work order, twice safely', async () => {
    const id = await newWorkOrder();
    const kept = ((await upload(PNG)).body as { data: Attachment }).data;
    await upload(PNG, { id }).expect(201);
    await upload(PDF, { id }).expect(201);
    await sut
      .http()
      .delete(`/v1/work-orders/${id}`)
      .set(...bearer(team))
      .expect(204);
    // An upload whose row never committed (a crash mid-request): its key listed long ago, its object stored.
    const orphan = `${team.teamId}/00000000-0000-4000-8000-00000000abcd`;
    await sut.sql(
      `INSERT INTO attachment_objects (storage_key, reason, since) VALUES ($1, 'upload', now() - interval '2 hours')`,
      [orphan],
    );
    await sut.app.get(ObjectStorage).put(orphan, Readable.from([PNG]));
    const cleanup = sut.app.get(AttachmentsCleanup);
    const files = async () =>
      new Set((await store.keys(`${team.teamId}/`)).map((key) => key.slice(team.teamId.length + 1)));
    expect((await files()).has('00000000-0000-4000-8000-00000000abcd')).toBe(true);
    expect(await cleanup.run()).toBeGreaterThanOrEqual(3);
    expect(await cleanup.run()).toBe(0);
    const left = await files();
    expect(left.has('00000000-0000-4000-8000-00000000abcd')).toBe(false);
    expect(left.has(kept.id)).toBe(true);
    const rows = await sut.sql<{ key: string }>('SELECT storage_key AS key FROM work_order_attachments');
    // One object per distinct key (the 100-per-work-order test points 100 rows at one object).
    expect(left.size).toBe(new Set(rows.map((row) => row.key).filter((key) => key.startsWith(team.teamId))).size);
  });

  /** The keys stored for one work order's team folder (the objects of rows and of uploads not yet removed). */
  const teamKeys = async (who: Team) => (await store.keys(`${who.teamId}/`)).sort();
  const listedUploads = async () =>
    (await sut.sql<{ key: string }>(`SELECT storage_key AS key FROM attachment_objects WHERE reason = 'upload'`)).map(
      (row) => row.key,
    );

  it('a replayed Idempotency-Key answers the first upload and removes the second’s object', async () => {
    const owner = await sut.createTeam('Replay team');
    const id = await newWorkOrder(owner);
    const send = () => upload(PNG, { id, who: owner }).set('Idempotency-Key', 'photo-upload-1');
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    const firstId = (first.body as { data: Attachment }).data.id;
    expect((again.body as { data: Attachment }).data.id).toBe(firstId);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // The same key with another file, or the same file with another field, is another request: 422, nothing kept.
    const otherFile = await upload(PDF, { id, who: owner }).set('Idempotency-Key', 'photo-upload-1');
    expect(expectError(otherFile, 422)).toMatch(/different request/);
    const otherField = await upload(PNG, { id, who: owner, fields: { description: 'Kitchen' } }).set(
      'Idempotency-Key',
      'photo-upload-1',
    );
    expectError(otherField, 422);
    await until(async () => (await listedUploads()).length === 0, 'the replayed upload taken off the list');
    expect(await teamKeys(owner)).toEqual([`${owner.teamId}/${firstId}`]);
  });

  it('stores a refused upload under its Idempotency-Key like any answer, and stores no object', async () => {
    const owner = await sut.createTeam('Refusal replay team');
    const id = await newWorkOrder(owner);
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const missing = '00000000-0000-4000-8000-000000000000';
    const cases: Array<[key: string, status: number, send: () => ReturnType<typeof upload>]> = [
      ['refused-type', 415, () => upload(html, { id, who: owner })],
      ['refused-work-order', 404, () => upload(PNG, { id: missing, who: owner })],
      ['refused-field', 400, () => upload(PNG, { id, who: owner, fields: { description: 'x'.repeat(501) } })],
      // Refused for a part the stored upload's digest leaves out: its valid retry without it is still another request.
      ['refused-unknown-field', 400, () => upload(PNG, { id, who: owner, fields: { colour: 'red' } })],
      ['refused-query', 400, () => upload(PNG, { id, who: owner }).query({ colour: 'red' })],
    ];
    for (const [key, status, send] of cases) {
      const first = await send().set('Idempotency-Key', key);
      expect({ key, status: first.status, replayed: first.headers['idempotent-replayed'] }).toEqual({
        key,
        status,
        replayed: 'false',
      });
      // The same request again (a new multipart boundary, the same file and fields): the stored answer.
      const again = await send().set('Idempotency-Key', key);
      expect({ key, status: again.status, replayed: again.headers['idempotent-replayed'], body: again.body }).toEqual({
        key,
        status,
        replayed: 'true',
        body: first.body,
      });
      // The key is taken: a valid upload with it is another request.
      expectError(await upload(PNG, { id, who: owner }).set('Idempotency-Key', key), 422);
    }
    await until(async () => (await listedUploads()).length === 0, 'every refused upload taken off the list');
    expect(await teamKeys(owner)).toEqual([]);
  });

  it('a write that rolls back after taking its key leaves no object behind', async () => {
    const owner = await sut.createTeam('Rollback team');
    const id = await newWorkOrder(owner);
    // The row's INSERT fails after the key was claimed in the same transaction: the claim rolls back with it.
    await sut.sql(`CREATE FUNCTION refuse_attachment() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await sut.sql(`CREATE TRIGGER refuse_attachment BEFORE INSERT ON work_order_attachments
      FOR EACH ROW EXECUTE FUNCTION refuse_attachment()`);
    try {
      const response = await upload(PNG, { id, who: owner });
      expect(response.status).toBe(500);
    } finally {
      await sut.sql('DROP TRIGGER refuse_attachment ON work_order_attachments');
      await sut.sql('DROP FUNCTION refuse_attachment()');
    }
    // The object goes first, then its entry (the removal's transaction commits after the object is deleted).
    await until(
      async () => (await teamKeys(owner)).length === 0 && (await listedUploads()).length === 0,
      'the rolled-back upload’s object removed and its key off the list',
    );
    expect(await sut.sql('SELECT id FROM work_order_attachments WHERE work_order_id = $1', [id])).toEqual([]);
  });
});
