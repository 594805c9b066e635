import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { BadRequestException, Injectable, Logger, UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isUuid, RecordNotFoundError } from '@app/common';
import { contentTypeOf } from './content-type.js';
import {
  displayName,
  receiveUpload,
  refusedUploadDigestOf,
  setRefusedUploadDigest,
  type ReceivedFile,
  type ReceivedUpload,
} from './multipart-upload.js';
import { AttachmentObjectsRepository } from './storage/attachment-objects.repository.js';
import { ObjectStorage } from './storage/object-storage.js';

export const DESCRIPTION_MAX = 500;

/** An upload whose object is stored and whose row is not written yet. */
export interface StoredUpload {
  id: string;
  storageKey: string;
  file: ReceivedFile;
  noteId: string | null;
  description: string | null;
  /** Set when the row's transaction took the key off the cleanup's list (it commits unless the answer is an error). */
  claimed?: boolean;
  /** Set when the answer closed with the key unclaimed (a refusal, or a client gone first): the object is removed. */
  abandoned?: boolean;
}

/**
 * The first half of an upload, run before the request's transaction opens (`ReceiveUploadGuard`), so no database
 * connection is held while a file streams in: the key is committed to the cleanup's list, the object written and
 * the fields checked. The second half (`AttachmentsService.create`) writes the row, and its event, in one short
 * transaction that takes the key off the list. Whatever did not commit a row is removed at once: on a refusal here,
 * on a refusal of the second half (before it claims the key), and after the answer (a replayed `Idempotency-Key`,
 * a rolled-back transaction) by `abandon`, which removes the object only while its key is still on the list.
 */
@Injectable()
export class AttachmentUploads {
  private readonly log = new Logger('Attachments');

  constructor(
    private readonly objects: AttachmentObjectsRepository,
    private readonly storage: ObjectStorage,
  ) {}

  async receive(teamId: string, workOrderId: string, request: Request, response: Response): Promise<StoredUpload> {
    if (!request.is('multipart/form-data')) {
      throw new UnsupportedMediaTypeException('Content-Type must be multipart/form-data');
    }
    const id = randomUUID();
    const storageKey = `${teamId}/${id}`;
    if (!(await this.objects.expectUploadTo(teamId, workOrderId, storageKey))) {
      throw new RecordNotFoundError('Work order');
    }
    try {
      const upload = await receiveUpload(request, (body) => this.storage.put(storageKey, body));
      const checked: StoredUpload = { id, storageKey, ...checkedFieldsOf(upload) };
      response.once('close', () => {
        // A success answer is sent after its transaction committed: a claimed key is then off the list for good.
        // Anything else (a refusal, a rolled-back write, a replayed Idempotency-Key) removes the object.
        if (checked.claimed && response.statusCode < 400) return;
        checked.abandoned = true;
        void this.abandon(storageKey);
      });
      return checked;
    } catch (error) {
      await this.abandon(storageKey);
      throw error;
    }
  }

  /**
   * Stores bytes the service itself holds (the demo team's example file) as an upload would: listed first, then
   * written, so a row that never commits leaves nothing behind either.
   */
  async storeBytes(teamId: string, id: string, bytes: Buffer, fileName: string): Promise<StoredUpload> {
    const contentType = contentTypeOf(bytes);
    if (!contentType) throw new Error(`the bytes of ${fileName} are not of an accepted type`);
    const storageKey = `${teamId}/${id}`;
    await this.objects.expectUpload(storageKey);
    await this.storage.put(storageKey, Readable.from([bytes]));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = { fileName: displayName(fileName), contentType, size: bytes.length, sha256 };
    return { id, storageKey, file, noteId: null, description: null };
  }

  /**
   * Reads an upload's body only to know what it sent (`uploadDigest`), storing nothing: for an Idempotency-Key's
   * refusal made before the body was read (an unknown work order), so that it is stored under the digest a retry
   * of the same upload has. Undefined when the body could not be read to its end.
   */
  async digestWithoutStoring(request: Request): Promise<string | undefined> {
    let digest: string | undefined;
    try {
      const upload = await receiveUpload(request, async (body) => {
        body.resume();
        await finished(body);
      });
      digest = upload.partsDigest;
    } catch (refusal) {
      digest = refusedUploadDigestOf(refusal);
    }
    // Only a body read to its end is known: a client gone half-way sent no request to answer.
    return request.readableEnded && !request.readableAborted ? digest : undefined;
  }

  /** Removes the upload's object unless its row committed (its key is then off the list); safe to repeat. */
  async abandon(storageKey: string): Promise<void> {
    try {
      await this.objects.abandonUpload(storageKey, () => this.storage.delete(storageKey));
    } catch (error) {
      // Its key stays on the list: the cleanup removes the object later.
      this.log.warn(`could not remove the upload ${storageKey} yet: ${(error as Error).message}`);
    }
  }
}

/** `checkedFields`, a refusal marked with what the upload sent (`refusedUploadDigestOf`). */
function checkedFieldsOf(upload: ReceivedUpload): Omit<StoredUpload, 'id' | 'storageKey'> {
  try {
    return checkedFields(upload);
  } catch (refusal) {
    // Known by every part it sent (an unknown field too), not by the stored upload's digest.
    setRefusedUploadDigest(refusal, upload.partsDigest);
    throw refusal;
  }
}

/** The fields of an upload, checked (the file was checked as it streamed). */
function checkedFields(upload: ReceivedUpload): Omit<StoredUpload, 'id' | 'storageKey'> {
  const { file, fields } = upload;
  if (!file) throw new BadRequestException('file is required: send the file in a part named file');
  const unknown = Object.keys(fields).filter((name) => name !== 'noteId' && name !== 'description');
  if (unknown.length > 0) throw new BadRequestException(`Unknown field ${unknown[0]}: only noteId and description`);
  const noteId = fields.noteId?.trim() || null;
  if (noteId && !isUuid(noteId)) throw new BadRequestException('noteId must be a UUID');
  const description = fields.description?.trim() || null;
  // PostgreSQL cannot store NUL in text: refused here, naming the field, rather than by the insert.
  if (description?.includes('\u0000')) throw new BadRequestException('description must not contain NUL characters');
  if (description && [...description].length > DESCRIPTION_MAX) {
    throw new BadRequestException(`description must be at most ${DESCRIPTION_MAX} characters`);
  }
  return { file, noteId: noteId?.toLowerCase() ?? null, description };
}
