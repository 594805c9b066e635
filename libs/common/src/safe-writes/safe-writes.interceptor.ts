import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  PreconditionFailedException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { ModuleRef, Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthenticatedRequest } from '../auth/caller.js';
import { Clock } from '../clock/clock.js';
import { ClientGoneError, ConflictError, RecordNotFoundError } from '../errors/domain-errors.js';
import { describeFailure } from '../errors/all-exceptions.filter.js';
import { runInTransaction } from '../persistence/transactions.js';
import { undeclaredQueryRefusal } from '../validation/declared-query.guard.js';
import { isUuid } from '../validation/id-param.js';
import {
  CONDITIONAL_RESOURCE,
  type ConditionalResourceOptions,
  type ConditionalSource,
  lockedRecord,
  parentIdOf,
} from './conditional-resource.js';
import { bodyFingerprint } from './body-digest.js';
import { deferredRefusalOf, IDEMPOTENCY_KEY_PATTERN } from './deferred-refusals.js';
import { entityTagOfAnswer, ifMatchHolds } from './entity-tag.js';
import { IDEMPOTENCY_RETENTION_MS, IdempotencyStore } from './idempotency.store.js';
import { ReplayedAnswer } from './replayed-answer.js';

/** The methods that take `Idempotency-Key`; `If-Match` is read on PUT and DELETE. */
const KEYED_METHODS = new Set(['POST', 'PUT', 'DELETE']);
const IDEMPOTENCY_KEY = IDEMPOTENCY_KEY_PATTERN;

/**
 * Marks the response for an `ETag` computed from the bytes sent (see JsonExpressAdapter); its value is the list of
 * the record's fields outside the tag (`ConditionalResourceOptions.untaggedFields`, often empty).
 */
export const ENTITY_TAG_LOCAL = 'entityTag';

/**
 * What the handler produced: its value, or a 4xx failure whose answer is stored and is thrown after commit; or,
 * for a retry, the stored answer (which the HTTP adapter sends as it was).
 */
type Outcome = { value: unknown } | { failure: unknown };

/**
 * Safe retries and conditional writes (CONTRACT "Safe retries", "Conditional requests"). After the API key and
 * the limits, a POST/PUT/DELETE sent with `Idempotency-Key` or `If-Match` runs in one transaction that:
 * 1. takes the key (a transaction-scoped advisory lock: a second request with it, on any instance, gets 409)
 *    and replays a stored answer (no write) or refuses a different request with the same key (422);
 * 2. locks the record and compares its current ETag with `If-Match` (404, then 412, before validation);
 * 3. runs the handler — validation, the rules, the write — in a savepoint, and stores its answer (any but
 *    5xx and 429) in the same transaction as the write, so the answer exists exactly when the write does.
 * Requests without either header take none of this: the hot path is unchanged.
 */
@Injectable()
export class SafeWritesInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const caller = request.caller;
    if (!caller) return next.handle();
    const resource = this.reflector.get<ConditionalResourceOptions | undefined>(
      CONDITIONAL_RESOURCE,
      context.getClass(),
    );
    const rawId: unknown = resource ? request.params[resource.idParam] : undefined;
    const id = typeof rawId === 'string' && isUuid(rawId) ? rawId.toLowerCase() : undefined;
    const method = request.method;
    if (resource && ((method === 'GET' && rawId !== undefined) || method === 'POST' || method === 'PUT')) {
      response.locals[ENTITY_TAG_LOCAL] = resource.untaggedFields ?? [];
    }
    if (!KEYED_METHODS.has(method)) return next.handle();

    const key = request.header('idempotency-key');
    const ifMatch = method !== 'POST' && resource && id ? request.header('if-match') : undefined;
    if (key === undefined && ifMatch === undefined) return next.handle();
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      throw new BadRequestException('Idempotency-Key must be 1 to 255 visible ASCII characters');
    }

    const run = async (): Promise<unknown> => {
      const precondition = async (): Promise<void> => {
        if (ifMatch !== undefined && resource && id) {
          await this.checkIfMatch(resource, caller.teamId, id, parentIdOf(resource, request.params), ifMatch);
        }
      };
      const handle = (): Promise<unknown> => lastValueFrom(next.handle(), { defaultValue: undefined });
      const outcome = await runInTransaction(this.db, async (manager): Promise<Outcome> => {
        if (key === undefined) {
          await precondition();
          return { value: await handle() };
        }
        const untagged = resource?.untaggedFields ?? [];
        return this.answerOnce(manager, caller.teamId, key, request, successStatus, untagged, async () => {
          // Left to here by DeclaredQueryGuard, so that this 400 is stored under the key as well.
          const refusal = undeclaredQueryRefusal(context);
          if (refusal) throw refusal;
          // And a refusal a route's guard made while it received a streamed body (deferRefusal): stored too.
          if (deferredRefusalOf(request) !== undefined) throw deferredRefusalOf(request);
          await precondition();
          return handle();
        });
      });
      // A stored 4xx is sent after its transaction committed (throwing inside would roll the answer back).
      if ('failure' in outcome) throw outcome.failure;
      return outcome.value;
    };
    const successStatus =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ??
      (method === 'POST' ? 201 : 200);
    if (key !== undefined) response.setHeader('Idempotent-Replayed', 'false');
    return from(run());
  }

  /** Step 1 and 3 for a request with a key: replay, refuse, or run and store the answer. */
  private async answerOnce(
    manager: EntityManager,
    teamId: string,
    key: string,
    request: AuthenticatedRequest,
    successStatus: number,
    untaggedFields: readonly string[],
    work: () => Promise<unknown>,
  ): Promise<Outcome> {
    if (!(await this.store.claim(manager, teamId, key))) {
      throw new ConflictError('A request with this Idempotency-Key is still in progress; retry later');
    }
    const now = this.clock.now();
    const path = request.originalUrl;
    const stored = await this.store.find(manager, teamId, key, new Date(now - IDEMPOTENCY_RETENTION_MS));
    if (stored) {
      const fingerprint = await bodyFingerprint(request);
      if (stored.method !== request.method || stored.path !== path || stored.fingerprint !== fingerprint) {
        throw new UnprocessableEntityException(
          'This Idempotency-Key was used with a different request (method, path or body); use a new key',
        );
      }
      return { value: new ReplayedAnswer(stored) };
    }

    // A streamed body (an upload, an import) is known by the digest its route takes as it reads it: after `work`.
    const answerOf = async () => ({ method: request.method, path, fingerprint: await bodyFingerprint(request) });
    await manager.query('SAVEPOINT safe_write');
    let value: unknown;
    try {
      value = await work();
    } catch (error) {
      await manager.query('ROLLBACK TO SAVEPOINT safe_write');
      const failure = describeFailure(error);
      // 5xx, 429 and a client gone before its answer are not stored (a retry runs anew); the transaction rolls back.
      if (!failure || failure.status >= 500 || failure.status === 429 || failure.status === ClientGoneError.STATUS) {
        throw error;
      }
      const body = JSON.stringify({ error: failure.error });
      const answer = await answerOf();
      // A streamed body refused before its route read it through has no fingerprint: not stored, a retry runs anew.
      if (answer.fingerprint === undefined) return { failure: error };
      await this.store.save(
        manager,
        teamId,
        key,
        { ...answer, fingerprint: answer.fingerprint, status: failure.status, body, entityTag: null },
        new Date(now),
      );
      return { failure: error };
    }
    const status = successStatus;
    const body = value === undefined ? '' : JSON.stringify(value);
    const entityTag = body !== '' && status !== 204 ? entityTagOfAnswer(value, untaggedFields, body) : null;
    const answer = await answerOf();
    if (answer.fingerprint === undefined) throw new Error(`${request.method} ${path} read its body without its digest`);
    const saved = { ...answer, fingerprint: answer.fingerprint, status, body, entityTag };
    await this.store.save(manager, teamId, key, saved, new Date(now));
    return { value };
  }

  /**
   * Step 2: the record must exist (404) and still be the representation the client saw (412). A nested record is
   * looked up under the parent in the path; when there is none, a missing parent is the 404 that names it.
   */
  private async checkIfMatch(
    resource: ConditionalResourceOptions,
    teamId: string,
    id: string,
    parentId: string | undefined,
    ifMatch: string,
  ): Promise<void> {
    const source = this.moduleRef.get<ConditionalSource>(resource.source, { strict: false });
    const record = await lockedRecord(source, teamId, id, parentId);
    if (!record) {
      const { parent } = resource;
      if (parent) {
        const parentSource = this.moduleRef.get<ConditionalSource>(parent.source, { strict: false });
        if (!parentId || !(await parentSource.lock(teamId, parentId))) throw new RecordNotFoundError(parent.name);
      }
      throw new RecordNotFoundError(resource.name);
    }
    const current = entityTagOfAnswer({ data: record }, resource.untaggedFields);
    if (!ifMatchHolds(ifMatch, current)) {
      throw new PreconditionFailedException(
        `If-Match does not match the ${resource.name.toLowerCase()}'s current ETag ${current}; read it again`,
      );
    }
  }
}
