import { createHash } from 'node:crypto';
import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { callerOf, isUuid, setBodyDigest, type AuthenticatedRequest } from '@app/common';
import { AttachmentUploads, type StoredUpload } from './attachment-uploads.js';

const received = new WeakMap<Request, StoredUpload>();

/**
 * Streams an upload into the object storage before the write's interceptors open its transaction (guards run
 * before interceptors, after the global ones that authenticate the key and refuse a read-only one), so a slow
 * upload holds no database connection. A guard that never refuses by returning false: its refusals are thrown
 * (404, 413, 415, 400). A malformed work order id is left to the route's validation (400), nothing read.
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
    const upload = await this.uploads.receive(teamId, workOrderId.toLowerCase(), request, response);
    received.set(request, upload);
    // "The same body" for an Idempotency-Key retry: the same file (by its bytes and name) and the same fields.
    const { file, noteId, description } = upload;
    const same = JSON.stringify([file.sha256, file.fileName, noteId, description]);
    setBodyDigest(request, createHash('sha256').update(same).digest('hex'));
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
