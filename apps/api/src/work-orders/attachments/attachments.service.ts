import { BadRequestException, ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import {
  AppConfig,
  ClientGoneError,
  ConflictError,
  isUuid,
  pageOf,
  RecordNotFoundError,
  Transactions,
  type ConditionalSource,
  type Page,
} from '@app/common';
import type { NoteAuthor } from '../notes/work-order-note.row.js';
import { WorkOrdersRepository } from '../work-orders.repository.js';
import type { AttachmentRow } from './attachment.row.js';
import { AttachmentsRepository } from './attachments.repository.js';
import { DownloadUrls } from './download-urls.js';
import { AttachmentResponse } from './dto/attachment.response.js';
import type { SignedDownloadQuery } from './dto/download.query.js';
import type { ListAttachmentsQuery } from './dto/list-attachments.query.js';
import { AttachmentUploads, type StoredUpload } from './attachment-uploads.js';
import { AttachmentObjectsRepository } from './storage/attachment-objects.repository.js';
import { ObjectStorage, type StoredObject } from './storage/object-storage.js';

/** The refusal of a download URL that is not one the API signed, or no longer valid (403). */
export const DOWNLOAD_REFUSED = 'This download URL is not valid: it was changed, has expired or was revoked';

/** How many attachments one work order may hold (CONTRACT "Attachments"). */
export const ATTACHMENTS_PER_WORK_ORDER = 100;

/** A work order's files: streamed into the object storage before their row commits. */
@Injectable()
export class AttachmentsService implements ConditionalSource {
  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly workOrders: WorkOrdersRepository,
    private readonly objects: AttachmentObjectsRepository,
    private readonly storage: ObjectStorage,
    private readonly urls: DownloadUrls,
    private readonly config: AppConfig,
    private readonly transactions: Transactions,
    private readonly uploads: AttachmentUploads,
  ) {}

  /**
   * The second half of an upload (`AttachmentUploads` stored the object first), in the request's short
   * transaction: the work order locked, the limits and the note checked, the key claimed off the cleanup's list
   * and the row inserted. A refusal before the claim removes the object at once; anything later that rolls back
   * leaves the key listed, and the object is removed after the answer.
   */
  async create(
    teamId: string,
    workOrderId: string,
    upload: StoredUpload,
    author: NoteAuthor,
    request?: Request,
  ): Promise<AttachmentResponse> {
    const { id, storageKey, file, noteId, description } = upload;
    return this.transactions.run(async () => {
      let attached: Awaited<ReturnType<AttachmentsRepository['attach']>>;
      try {
        if (!(await this.workOrders.lock(teamId, workOrderId))) throw new RecordNotFoundError('Work order');
        const values = { id, workOrderId, noteId, description, ...file, storageKey, createdBy: author };
        attached = await this.attachments.attach(teamId, values, ATTACHMENTS_PER_WORK_ORDER);
      } catch (error) {
        if (error instanceof RecordNotFoundError) await this.uploads.abandon(storageKey);
        throw error;
      }
      if (!attached.row) {
        // A refusal claimed nothing: the object goes at once. (A key no longer listed was cleaned up already.)
        if (attached.count < ATTACHMENTS_PER_WORK_ORDER && attached.noteFound) {
          // Its client went away first, and the object went with it: nobody to answer, no server fault.
          if (upload.abandoned) throw new ClientGoneError('The client went away before its upload was recorded');
          throw new Error(`upload ${storageKey} was cleaned up before its row`);
        }
        await this.uploads.abandon(storageKey);
        if (attached.count >= ATTACHMENTS_PER_WORK_ORDER) {
          throw new ConflictError(
            `The work order already has ${ATTACHMENTS_PER_WORK_ORDER} attachments, the most it can hold; delete one first`,
          );
        }
        throw new BadRequestException('noteId must reference a note of this work order');
      }
      upload.claimed = true;
      return this.responseOf(attached.row, request);
    });
  }

  async list(
    teamId: string,
    workOrderId: string,
    query: ListAttachmentsQuery,
    request?: Request,
  ): Promise<Page<AttachmentResponse>> {
    const [rows, total] = await this.attachments.list(teamId, workOrderId, query);
    if (total === 0) await this.requireWorkOrder(teamId, workOrderId);
    return pageOf(
      rows.map((row) => this.responseOf(row, request)),
      total,
      query,
    );
  }

  async get(teamId: string, id: string, workOrderId?: string, request?: Request): Promise<AttachmentResponse> {
    const row = workOrderId && (await this.attachments.findInWorkOrder(teamId, workOrderId, id));
    if (!row) throw await this.notFound(teamId, workOrderId);
    return this.responseOf(row, request);
  }

  async lock(teamId: string, id: string, workOrderId?: string): Promise<boolean> {
    return workOrderId !== undefined && (await this.attachments.findInWorkOrder(teamId, workOrderId, id)) !== undefined;
  }

  /** Deletes the row; the object goes with the cleanup (its key is listed by the table's trigger). */
  async remove(teamId: string, workOrderId: string, id: string): Promise<void> {
    if (!(await this.attachments.deleteInWorkOrder(teamId, workOrderId, id))) {
      throw await this.notFound(teamId, workOrderId);
    }
  }

  /** The bytes of the work order's attachment (with a key). */
  async content(
    teamId: string,
    workOrderId: string,
    id: string,
  ): Promise<{ row: AttachmentRow; object: StoredObject }> {
    const row = await this.attachments.findInWorkOrder(teamId, workOrderId, id);
    if (!row) throw await this.notFound(teamId, workOrderId);
    return { row, object: await this.objectOf(row) };
  }

  /**
   * The bytes a signed URL names; 403 when its query is not as signed (`signed` undefined), the signature is wrong
   * or old, or the attachment is gone.
   */
  async download(
    teamId: string,
    id: string,
    signed: SignedDownloadQuery | undefined,
  ): Promise<{ row: AttachmentRow; object: StoredObject }> {
    const refused = new ForbiddenException(DOWNLOAD_REFUSED);
    if (!signed || !isUuid(teamId) || !isUuid(id)) throw refused;
    if (!this.urls.verify(teamId, id, signed.expires, signed.signature)) throw refused;
    const row = await this.attachments.findOne(teamId, id);
    if (!row) throw refused;
    return { row, object: await this.objectOf(row) };
  }

  private async objectOf(row: AttachmentRow): Promise<StoredObject> {
    const object = await this.storage.get(row.storageKey);
    if (!object) throw new Error(`attachment ${row.id}: its object ${row.storageKey} is missing`);
    return object;
  }

  private responseOf(row: AttachmentRow, request?: Request): AttachmentResponse {
    const signed = this.urls.sign(row.teamId, row.id);
    const base = (
      this.config.PUBLIC_URL ?? `${request?.protocol ?? 'http'}://${request?.get('host') ?? 'localhost'}`
    ).replace(/\/+$/, '');
    const downloadUrl = `${base}/v1/${signed.path}?expires=${signed.expires}&signature=${signed.signature}`;
    return AttachmentResponse.from(row, { downloadUrl, expiresAt: signed.expiresAt });
  }

  private async notFound(teamId: string, workOrderId: string | undefined): Promise<RecordNotFoundError> {
    if (workOrderId) await this.requireWorkOrder(teamId, workOrderId);
    return new RecordNotFoundError('Attachment');
  }

  private async requireWorkOrder(teamId: string, workOrderId: string): Promise<void> {
    const found = await this.workOrders.existingIds(teamId, [workOrderId]);
    if (!found.has(workOrderId)) throw new RecordNotFoundError('Work order');
  }
}
