import { createLogger, type Logger, type LogLevel } from '@app/common';

/** A logger like the service's, writing into memory: each line parsed as the JSON it must be. */
export interface LogCapture {
  logger: Logger;
  lines: Record<string, unknown>[];
  /** Everything written, as text (to check that something never appears). */
  text(): string;
  clear(): void;
}

export function captureLogs(level: LogLevel): LogCapture {
  const raw: string[] = [];
  const capture: LogCapture = {
    logger: createLogger(level, { write: (line: string) => void raw.push(line) }),
    get lines() {
      return raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    text: () => raw.join(''),
    clear: () => void raw.splice(0),
  };
  return capture;
}
