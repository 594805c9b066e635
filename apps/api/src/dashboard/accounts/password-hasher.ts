import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/common';
import { HashingGate } from './hashing-gate.js';
import { hashPassword, verifyPassword } from './password.js';

/**
 * The password hash behind the gate (see HashingGate), for everything a stranger can start: sign-in and sign-up.
 * Each instance has its own gate, as each has its own thread pool. The CLI's `users create` hashes directly.
 */
@Injectable()
export class PasswordHasher {
  readonly gate: HashingGate;

  constructor(config: AppConfig) {
    this.gate = new HashingGate({
      concurrency: config.PASSWORD_HASH_CONCURRENCY,
      queue: config.PASSWORD_HASH_QUEUE,
      perClient: config.PASSWORD_HASH_PER_CLIENT,
    });
  }

  /** Throws HashingBusyError when the client may not wait for a turn. */
  hash(password: string, client: string): Promise<string> {
    return this.gate.run(client, () => hashPassword(password));
  }

  /** Throws HashingBusyError when the client may not wait for a turn. */
  verify(password: string, stored: string, client: string): Promise<boolean> {
    return this.gate.run(client, () => verifyPassword(password, stored));
  }
}
