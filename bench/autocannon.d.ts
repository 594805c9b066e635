// autocannon ships no type declarations; these cover only what the runner uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface RequestDefinition {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (request: RequestDefinition, context: Record<string, unknown>) => RequestDefinition;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** A number of requests to send, instead of a duration. */
    amount?: number;
    /** Requests per second across all connections, at most (none: each connection sends as fast as it can). */
    overallRate?: number;
    pipelining?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: RequestDefinition[];
  }

  export interface Result {
    requests: { average: number; total: number; sent: number };
    latency: { average: number; p50: number; p99: number; max: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }

  export interface Instance extends EventEmitter {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
    on(event: 'reqError', listener: (error: Error) => void): this;
    on(event: 'done', listener: (result: Result) => void): this;
    stop(): void;
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
