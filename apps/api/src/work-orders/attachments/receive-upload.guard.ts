import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  callerOf,
  deferWithDigest,
  isUuid,
  rawBodyDigest,
  setBodyDigest,
  undeclaredQueryRefusal,
  type AuthenticatedRequest,
} from '@app/common';
import { AttachmentUploads, type StoredUpload } from './attachment-uploads.js';
import { refusedUploadDigestOf, uploadDigest } from './multipart-upload.js';

const received = new WeakMap<Request, StoredUpload>();

/**
 * Streams an upload into the object storage before the write's interceptors open its transaction (guards run
 * before interceptors, after the global ones that authenticate the key and refuse a read-only one), so a slow
 * upload holds no database connection. A guard that never refuses by returning false: its refusals are thrown
 * (404, 413, 415, 400), or with an Idempotency-Key left to the key's transaction with the digest of what was sent,
 * so that they are stored as any answer (`deferRefusal`). A malformed work order id is left to the route's
 * validation (400), nothing read.
 */
@Injectable()
export class ReceiveUploadGuard implements CanActivate {
  constructor(private readonly uploads: AttachmentUploads) {}

  async canActivate(context: ExecutionContext): Promise<true> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const workOrderId: unknown = request.params.workOrderId;
    if (typeof workOrderId !== 'string' || !isUuid(workOrderId)) return true;
    const response = context.switchToHttp().getResponse<Response>();
    const teamId = callerOf(request).teamId;
    // A query parameter the route does not take, sent with an Idempotency-Key (without one, DeclaredQueryGuard has
    // refused it already): refused before anything is stored, inside the key's transaction, under what was sent.
    const queryRefusal = undeclaredQueryRefusal(context);
    if (queryRefusal) {
      if (await deferWithDigest(request, queryRefusal, () => this.uploads.digestWithoutStoring(request))) return true;
      throw queryRefusal;
    }
    let upload: StoredUpload;
    try {
      upload = await this.uploads.receive(teamId, workOrderId.toLowerCase(), request, response);
    } catch (refusal) {
      // With an Idempotency-Key, the refusal is answered inside the key's transaction, stored under what the
      // upload sent (deferRefusal). A work order found missing before the body was read: the body is read for it.
      // (Read here, before that transaction holds a connection.) Another Content-Type: its own bytes or JSON value.
      const digestOf = async (): Promise<string | undefined> => {
        const known = refusedUploadDigestOf(refusal);
        if (known !== undefined || request.readableDidRead) return known;
        return request.is('multipart/form-data') ? this.uploads.digestWithoutStoring(request) : rawBodyDigest(request);
      };
      if (await deferWithDigest(request, refusal, digestOf)) return true;
      throw refusal;
    }
    received.set(request, upload);
    // "The same body" for an Idempotency-Key retry: the same file (by its bytes and name) and the same fields.
    const { file, noteId, description } = upload;
    setBodyDigest(request, uploadDigest(file.sha256, file.fileName, noteId, description));
    return true;
  }
}

/**
 * The upload `ReceiveUploadGuard` stored for this request; undefined when it stored none because the work order id
 * is malformed — that request is refused (400) by the id's validation, which must not lose to a throw from here.
 */
export const ReceivedUpload = createParamDecorator((_: unknown, context: ExecutionContext): StoredUpload | undefined =>
  received.get(context.switchToHttp().getRequest<Request>()),
);
