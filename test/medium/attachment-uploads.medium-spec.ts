import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ClientGoneError } from '@app/common';
import { UnitsService } from '../../apps/api/src/units/units.service.js';
import { AttachmentUploads } from '../../apps/api/src/work-orders/attachments/attachment-uploads.js';
import { AttachmentsService } from '../../apps/api/src/work-orders/attachments/attachments.service.js';
import { WorkOrdersService } from '../../apps/api/src/work-orders/work-orders.service.js';
import { createMediumApp, type MediumApp } from '../support/medium-app.js';

// The second half of an upload (the row) when its first half's object is already gone, on the service against
// PostgreSQL: gone because its client left before the row was written (nobody to answer: 499, not a server fault),
// or for no reason the request knows of (a fault: 500). Either way no row is written.

describe('an upload whose object went before its row', () => {
  let app: MediumApp;
  let teamId: string;
  const author = { type: 'api_key' as const, id: randomUUID(), name: 'Front desk' };
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1024, 1)]);

  beforeAll(async () => {
    app = await createMediumApp();
    teamId = await app.createTeam();
  });
  afterAll(() => app.close());

  const storedAndAbandoned = async () => {
    const unit = await app
      .get(UnitsService)
      .create(teamId, { addressLine1: '4 Mill Lane', city: 'Leeds', postcode: 'LS1 4AP', country: 'UK' });
    const workOrder = await app.get(WorkOrdersService).create(teamId, { title: 'Leaking tap', unitId: unit.id });
    const uploads = app.get(AttachmentUploads);
    const upload = await uploads.storeBytes(teamId, randomUUID(), png, 'leak.png');
    // As the answer's close does when the client goes first: the key off the list, the object removed.
    await uploads.abandon(upload.storageKey);
    return { workOrderId: workOrder.id, upload };
  };
  const rowsOf = (workOrderId: string) =>
    app.sql('SELECT id FROM work_order_attachments WHERE team_id = $1 AND work_order_id = $2', [teamId, workOrderId]);

  it('is a client gone (499) when its client left first, and writes no row', async () => {
    const { workOrderId, upload } = await storedAndAbandoned();
    upload.abandoned = true;
    const created = app.get(AttachmentsService).create(teamId, workOrderId, upload, author);
    await expect(created).rejects.toBeInstanceOf(ClientGoneError);
    expect(await rowsOf(workOrderId)).toEqual([]);
  });

  it('is a server fault when nothing says why, and writes no row', async () => {
    const { workOrderId, upload } = await storedAndAbandoned();
    const error = await app
      .get(AttachmentsService)
      .create(teamId, workOrderId, upload, author)
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ClientGoneError);
    expect((error as Error).message).toMatch(/was cleaned up before its row/);
    expect(await rowsOf(workOrderId)).toEqual([]);
  });
});
