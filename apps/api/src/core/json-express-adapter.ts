import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Request, Response } from 'express';
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import { closeGracefully, ENTITY_TAG_LOCAL, entityTagOfAnswer, ifNoneMatchFails, ReplayedAnswer } from '@app/common';

/**
 * Express's `res.json()` turns bodies of 1,000 characters or more into a Buffer, and Node then sends the
 * headers and the body as two chunks (`writev`); a string body goes out with its headers in one write.
 * Profiling showed socket writes as the service's largest cost, so plain JSON replies are written directly.
 */
export class JsonExpressAdapter extends ExpressAdapter {
  /**
   * The HTTP server, with requests and responses made by classes whose prototypes are already Express's (see
   * `expressMessageClasses`). The options this app does not use (HTTPS, Nest's own 503-on-close and connection
   * tracking) keep Nest's server.
   */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.return503OnClosing || options.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance<Express>();
    const { ExpressRequest, ExpressResponse } = expressMessageClasses(app);
    this.setHttpServer(createServer({ IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse }, app));
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    // A retry's stored answer (SafeWritesInterceptor) goes out as it was first sent, with its own status.
    if (body instanceof ReplayedAnswer) return body.writeTo(response);
    if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || !isPlainData(body)) {
      return super.reply(response, body, statusCode);
    }
    const json = JSON.stringify(body);
    if (statusCode !== undefined) response.status(statusCode);
    // A strong ETag is a hash of these bytes (SafeWritesInterceptor and EntityTagGuard mark the routes that carry
    // one, with the fields left out of it: a record's signed URL, made anew for every read, is not its state).
    const untaggedFields: unknown = response.locals[ENTITY_TAG_LOCAL];
    if (Array.isArray(untaggedFields)) {
      const tag = entityTagOfAnswer(body, untaggedFields as string[], json);
      response.setHeader('ETag', tag);
      const ifNoneMatch = response.req.headers['if-none-match'];
      if (response.req.method === 'GET' && ifNoneMatch !== undefined && ifNoneMatchFails(ifNoneMatch, tag)) {
        return response.status(304).end();
      }
    }
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(json));
    return response.end(json);
  }

  private closing?: Promise<void>;

  /**
   * Shutdown's first step, awaited by Nest before any provider's hook: stop taking connections and answer every
   * request under way, without the reset of unread requests that Nest's close (Node's `server.close()`) would do
   * (see `closeGracefully`). So providers shut down after the last request, with the database still open: the
   * usage recorder's final batch and the webhook attempts under way are written (`beforeApplicationShutdown`).
   */
  // Nest's type says void, but NestApplication.prepareClose() awaits what this returns: the drain is awaited.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  override beforeClose(): Promise<void> {
    const server = this.getHttpServer() as Server | undefined;
    this.closing ??= server ? closeGracefully(server) : Promise.resolve();
    return this.closing;
  }

  /** Shutdown's HTTP step: resolves once every request under way was answered and its connection ended. */
  override async close(): Promise<void> {
    await this.beforeClose();
  }
}

/** Arrays and plain objects (the API's `{data}` envelopes), not streams or class instances with their own rules. */
function isPlainData(body: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(body);
  return Array.isArray(body) || prototype === Object.prototype || prototype === null;
}

/**
 * Express gives every request and response its app's prototype as it arrives (`Object.setPrototypeOf(req,
 * app.request)` in `app.handle`), and each such change leaves work for V8's old generation (a new hidden class,
 * and most likely the object kept until a full collection). A bare Express 5 app promoted ~7.3 KB per request
 * out of the young generation and ran mark-compacts all the time; plain `node:http` promoted 3 bytes and ran
 * none. Requests and responses built by these classes already have the app's prototypes, so Express's call
 * changes nothing: ~27 bytes per request, no mark-compact (docs/performance-log.md, "Express's prototype swap").
 *
 * Each class's prototype is put in front of the app's (`app.request` → Express's request →
 * `IncomingMessage.prototype`) and becomes the app's, so everything Express and Nest read through `req.app` or the
 * prototype stays where it was.
 */
export function expressMessageClasses(app: Express): {
  ExpressRequest: typeof IncomingMessage;
  ExpressResponse: typeof ServerResponse;
} {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse extends ServerResponse {}
  Object.setPrototypeOf(ExpressRequest.prototype, app.request);
  Object.setPrototypeOf(ExpressResponse.prototype, app.response);
  app.request = ExpressRequest.prototype as unknown as Request;
  app.response = ExpressResponse.prototype as unknown as Response;
  // The generic `ServerResponse<Request>` constructor type cannot be met by a subclass: the cast is the option's type.
  return { ExpressRequest, ExpressResponse: ExpressResponse as typeof ServerResponse };
}
