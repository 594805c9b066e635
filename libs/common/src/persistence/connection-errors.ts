import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EventEmitter } from 'node:events';
import { DataSource } from 'typeorm';

interface PgPool extends EventEmitter {
  _clients?: EventEmitter[];
}

/**
 * A pooled connection that the server terminates while it is checked out between two queries (inside a
 * transaction) emits 'error' with no listener: pg-pool listens only on idle connections, so Node would turn it into
 * an uncaught exception and the process would die. Every connection gets a listener here; the connection is then
 * unusable, the request's next query fails, the answer is 503 (see the exception filter) and the pool drops it.
 */
@Injectable()
export class ConnectionErrors implements OnModuleInit {
  private readonly log = new Logger('Database');
  private warned = 0;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  onModuleInit(): void {
    const pool = (this.db.driver as { master?: PgPool }).master;
    if (!pool) return;
    const listen = (client: EventEmitter): void => {
      client.on('error', (error: Error) => {
        // A burst of terminations would otherwise write one line per connection.
        if (this.warned++ % 100 === 0) this.log.warn(`a database connection failed: ${error.message}`);
      });
    };
    for (const client of pool._clients ?? []) listen(client);
    pool.on('connect', listen);
  }
}
