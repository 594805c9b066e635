import type { INestApplication } from '@nestjs/common';
import type { RunningDatabase } from '@app/database';
import type { Logger } from '@app/common';
import { StartUpError } from './start-up.js';

/** How long closing the app may take (in-flight requests finishing) before the database is stopped anyway. */
const CLOSE_TIMEOUT_MS = 10_000;

const within = <T>(promise: Promise<T>, ms: number): Promise<T | undefined> =>
  Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref())]);

/** What a start-up step produced, or undefined when it failed (its failure is reported elsewhere). */
const settled = <T>(promise: Promise<T> | undefined): Promise<T | undefined> =>
  promise ? promise.catch(() => undefined) : Promise.resolve(undefined);

/**
 * What the process must release however it ends — signal, failed start-up, crash: the app (in-flight
 * requests, pool, Redis), then the embedded PostgreSQL if this process started it. Without this a failed
 * start left the embedded database running, to be reused by later starts and never stopped.
 */
export class ProcessLifecycle {
  // Promises, so that a signal arriving while the database or the app is still starting waits for it and
  // then releases it, instead of exiting and leaving a just-started embedded PostgreSQL behind.
  private app?: Promise<INestApplication>;
  private database?: Promise<RunningDatabase>;
  private stopping = false;

  constructor(private readonly logger: Logger) {}

  /** Installs the signal and crash handlers; call first. */
  watch(): this {
    process.on('SIGINT', () => void this.stop('SIGINT'));
    process.on('SIGTERM', () => void this.stop('SIGTERM'));
    process.on('uncaughtException', (error) => void this.fail(error, 'Crashed'));
    process.on('unhandledRejection', (reason) => void this.fail(reason, 'Crashed'));
    return this;
  }

  ownsDatabase(starting: Promise<RunningDatabase>): Promise<RunningDatabase> {
    this.database = starting;
    return starting;
  }

  ownsApp<T extends INestApplication>(starting: Promise<T>): Promise<T> {
    this.app = starting;
    return starting;
  }

  /** A failed start or a crash: one fatal line (the cause, or a stack trace when unexpected), then exit 1. */
  async fail(error: unknown, what = 'Start-up failed'): Promise<void> {
    // Stopping already (a signal during start-up): the start's steps fail as the database goes away; the
    // release under way ends the process.
    if (this.stopping) return;
    if (error instanceof StartUpError) {
      this.fatal({}, error.message);
    } else if (error instanceof Error) {
      this.fatal({ stack: error.stack }, `${what}: ${error.message}`);
    } else {
      this.fatal({}, `${what}: ${String(error)}`);
    }
    await this.release(1);
  }

  private async stop(signal: string): Promise<void> {
    this.logger.info(
      this.stopping ? `${signal} again: stopping now` : `${signal}: finishing in-flight requests and stopping`,
    );
    await this.release(0);
  }

  private fatal(fields: Record<string, unknown>, message: string): void {
    if (this.logger.isLevelEnabled('fatal')) this.logger.fatal(fields, message);
    else process.stderr.write(`${message}\n`);
  }

  private async release(exitCode: number): Promise<void> {
    if (this.stopping) {
      // A second signal, or a crash while stopping: stop waiting for the app, but still stop the database.
      await (await settled(this.database))?.stop().catch(() => undefined);
      process.exit(exitCode || 1);
    }
    this.stopping = true;
    try {
      // app.close() stops accepting connections and waits for in-flight requests before closing the pool.
      const app = await settled(this.app);
      if (app) await within(app.close(), CLOSE_TIMEOUT_MS);
    } catch (error) {
      this.logger.error({ stack: (error as Error).stack }, `Closing the app failed: ${(error as Error).message}`);
    }
    try {
      await (await settled(this.database))?.stop();
    } catch (error) {
      this.logger.error(`Stopping the embedded database failed: ${(error as Error).message}`);
      exitCode ||= 1;
    }
    process.exit(exitCode);
  }
}
