/** How many hashes may run at once, wait for a turn, and be held (running or waiting) by one client address. */
export interface HashingLimits {
  concurrency: number;
  queue: number;
  perClient: number;
}

/** Refused at once: the client already holds its share, or every turn and every waiting place is taken. */
export class HashingBusyError extends Error {
  constructor(readonly reason: 'client' | 'everyone') {
    super(
      reason === 'client'
        ? 'Too many password checks from this address are under way'
        : 'Too many password checks are under way',
    );
    this.name = 'HashingBusyError';
  }
}

/**
 * A semaphore in front of the password hash. scrypt runs on libuv's small thread pool (4 threads), so a flood of
 * sign-ins with unknown emails, each hashing, would make everyone wait behind it. At most `concurrency` hashes run
 * at once and at most `queue` wait (first come, first served); one client address holds at most `perClient` of
 * those places. Anything beyond is refused at once, so a flood from one address is answered 429 while another
 * address still gets a turn, and the wait is bounded by `queue / concurrency` hashes.
 */
export class HashingGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly heldBy = new Map<string, number>();

  constructor(private readonly limits: HashingLimits) {}

  /** Runs `work` when a turn is free; throws HashingBusyError (without running it) when it may not wait. */
  async run<T>(client: string, work: () => Promise<T>): Promise<T> {
    const held = this.heldBy.get(client) ?? 0;
    if (held >= this.limits.perClient) throw new HashingBusyError('client');
    const mustWait = this.running >= this.limits.concurrency;
    if (mustWait && this.waiting.length >= this.limits.queue) throw new HashingBusyError('everyone');
    this.heldBy.set(client, held + 1);
    try {
      if (mustWait) await new Promise<void>((resolve) => this.waiting.push(resolve));
      else this.running++;
      try {
        return await work();
      } finally {
        this.handOver();
      }
    } finally {
      this.release(client);
    }
  }

  /** What the gate holds now (for tests and metrics). */
  get load(): { running: number; waiting: number; clients: number } {
    return { running: this.running, waiting: this.waiting.length, clients: this.heldBy.size };
  }

  /** A finished hash passes its turn straight to the first waiter (the running count stays), or frees it. */
  private handOver(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private release(client: string): void {
    const held = (this.heldBy.get(client) ?? 1) - 1;
    if (held <= 0) this.heldBy.delete(client);
    else this.heldBy.set(client, held);
  }
}
