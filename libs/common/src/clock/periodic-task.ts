import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';

/**
 * Work that runs every `everyMs` on every instance while the application runs (the cleanups: each is a delete
 * that is safe to run anywhere, any number of times, so instances need no coordination). A failed run is logged
 * and the next one tries again; the timer never keeps the process alive.
 */
export abstract class PeriodicTask implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private readonly log: Logger;

  protected constructor(
    private readonly everyMs: number,
    name: string,
  ) {
    this.log = new Logger(name);
  }

  /** One pass (tests call it directly, with their own clock). */
  abstract run(): Promise<unknown>;

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => void this.run().catch((error: Error) => this.log.warn(`periodic task failed: ${error.message}`)),
      this.everyMs,
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
