import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/**
 * The process's one logger: JSON lines `{"level":"info","time":"<ISO 8601>",…,"msg":…}` on stdout (or on
 * `destination`, for tests). Request lines, Nest's own messages and start-up lines all go through it.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    // No pid/hostname on every line: the process manager knows both.
    base: undefined,
    timestamp: stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger } from 'pino';
