/** Source of the current time, injected so tests can move it by hand. */
export abstract class Clock {
  /** Milliseconds since the Unix epoch. */
  abstract now(): number;
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock that only moves when told to; for tests. */
export class ManualClock extends Clock {
  constructor(private current = Date.UTC(2030, 0, 1)) {
    super();
  }

  now(): number {
    return this.current;
  }

  set(epochMs: number): void {
    this.current = epochMs;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
