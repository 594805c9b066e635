import { describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { createLogger, type LogLevel } from './logger.js';
import { PinoNestLogger } from './nest-logger.js';
import { AboutRequest } from './request-context.js';

function nestLoggerAt(level: LogLevel): { sut: PinoNestLogger; lines: () => Record<string, unknown>[] } {
  const raw: string[] = [];
  const sut = new PinoNestLogger(createLogger(level, { write: (line: string) => void raw.push(line) }));
  return { sut, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe(PinoNestLogger.name, () => {
  it('writes `(message, context)` as one JSON line with the context', () => {
    const { sut, lines } = nestLoggerAt('info');
    sut.warn('rate-limit store unavailable', 'RateLimit');
    expect(lines()).toEqual([
      { level: 'warn', time: expect.any(String), context: 'RateLimit', msg: 'rate-limit store unavailable' },
    ]);
  });

  it('keeps the stack of `(message, stack, context)` in its own field', () => {
    const { sut, lines } = nestLoggerAt('info');
    const stack = new Error('boom').stack as string;
    sut.error('Unhandled', stack, 'Exceptions');
    expect(lines()).toEqual([
      { level: 'error', time: expect.any(String), context: 'Exceptions', stack, msg: 'Unhandled' },
    ]);
  });

  it('splits a stack trace passed as the message into its first line and the stack', () => {
    const { sut, lines } = nestLoggerAt('info');
    const stack = new Error('boom').stack as string;
    sut.error(stack, undefined, 'Exceptions');
    expect(lines()).toEqual([
      { level: 'error', time: expect.any(String), context: 'Exceptions', stack, msg: 'Error: boom' },
    ]);
  });

  it('demotes Nest’s start-up chatter to debug', () => {
    const { sut, lines } = nestLoggerAt('info');
    sut.log('Mapped {/v1/invoices, GET} route', 'RouterExplorer');
    sut.log('Nest application successfully started', 'NestApplication');
    expect(lines()).toEqual([]);
  });

  it('adds the id of the request the line is about', () => {
    const { sut, lines } = nestLoggerAt('info');
    sut.error('Unhandled', new AboutRequest('req-1'), 'Exceptions');
    expect(lines()).toEqual([
      { level: 'error', time: expect.any(String), context: 'Exceptions', requestId: 'req-1', msg: 'Unhandled' },
    ]);
  });

  it('serves Nest `Logger` instances once installed', () => {
    const { sut, lines } = nestLoggerAt('debug');
    Logger.overrideLogger(sut);
    try {
      new Logger('Probe').debug('hello');
    } finally {
      Logger.overrideLogger(false);
    }
    expect(lines()).toEqual([{ level: 'debug', time: expect.any(String), context: 'Probe', msg: 'hello' }]);
  });
});
