import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';
import { AboutRequest } from './request-context.js';

type Level = 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * Nest's routine start-up chatter (one line per module, controller and route, then "successfully started"
 * before the port is even bound) is debug detail, not what an operator reads: `LOG_LEVEL=debug` shows it.
 */
const START_UP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

const STACK = /\n\s+at /;

/**
 * Nest's `LoggerService` on the process's pino logger, so the framework's messages have the same JSON shape
 * as every other line: `context` is the Nest logger's name, `requestId` is set when the call says which request the
 * line is about (`AboutRequest`: a server fault's stack trace can be matched with the caller's `X-Request-Id`).
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(requested: Level, message: unknown, params: unknown[]): void {
    // Nest passes the logger's name last: `(message, context)`, or `(message, stack, context)` for errors.
    const context = params.length > 0 && typeof params.at(-1) === 'string' ? (params.at(-1) as string) : undefined;
    const level = requested === 'info' && context !== undefined && START_UP_CONTEXTS.has(context) ? 'debug' : requested;
    if (!this.logger.isLevelEnabled(level)) return;

    const about = params.find((param): param is AboutRequest => param instanceof AboutRequest);
    const fields: Record<string, unknown> = { context, requestId: about?.requestId };
    const stack = params.find((param): param is string => typeof param === 'string' && STACK.test(param));
    if (stack !== undefined) fields.stack = stack;
    if (message instanceof Error) {
      fields.stack ??= message.stack;
      this.logger[level](fields, message.message);
    } else if (typeof message === 'string' && fields.stack === undefined && STACK.test(message)) {
      // A stack trace passed as the message (`logger.error(error.stack)`): its first line is the message.
      fields.stack = message;
      this.logger[level](fields, message.slice(0, message.indexOf('\n')));
    } else if (typeof message === 'string') {
      this.logger[level](fields, message);
    } else {
      this.logger[level]({ ...fields, data: message });
    }
  }
}
