import autocannon, { type RequestDefinition } from 'autocannon';
import { cpuTimeMs, sampleRss, type ServerUnderTest } from './servers.js';

export interface NextRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** JSON, or a Buffer sent as it is (with its own `content-type` in `headers`). */
  body?: unknown;
  /** Sent beside the key and Content-Type (e.g. `Idempotency-Key`). */
  headers?: Record<string, string>;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  /** Send this many requests instead of loading for `durationSeconds` (the smoke run's few uploads). */
  amount?: number;
  /**
   * At most this many requests a second across the connections (autocannon's `overallRate`): a steady load well
   * under what the server answers, so a latency is that of a request rather than of a queue. None: flat out.
   */
  rate?: number;
  apiKey: string;
  /** Called for every request sent: the scenario's next request. */
  next: () => NextRequest;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Responses outside 2xx, by status. */
  failures: Record<string, number>;
  /** Socket errors and timeouts. */
  errors: number;
  peakRssMiB?: number;
  /** CPU time the server process spent per answered request: steadier than req/s on a shared machine. */
  cpuMsPerRequest?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Drives one server for a fixed time with `connections` keep-alive connections, each sending its next request
 * as soon as the previous answer arrives. Every status is counted; latencies are kept whole for exact percentiles.
 */
export function drive(server: ServerUnderTest, options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let errors = 0;
  const headers = { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' };
  const request: RequestDefinition = {
    method: 'GET',
    path: '/',
    headers,
    setupRequest: (base) => {
      const next = options.next();
      return {
        ...base,
        method: next.method,
        path: next.path,
        // A fresh object each time: autocannon writes the body's Content-Length into the headers it is given, and
        // a shared object would send a POST's length with the next GET (which then waits for a body).
        headers: { ...headers, ...next.headers },
        body: next.body === undefined ? undefined : Buffer.isBuffer(next.body) ? next.body : JSON.stringify(next.body),
      };
    },
  };
  const pid = server.process.pid;
  const stopSampling = pid === undefined ? () => undefined : sampleRss(pid);
  const cpuBefore = pid === undefined ? undefined : cpuTimeMs(pid);
  const started = performance.now();
  let lastAnswered = started;
  return new Promise((resolveResult, reject) => {
    const instance = autocannon(
      {
        url: server.baseUrl,
        connections: options.connections,
        duration: options.durationSeconds,
        ...(options.amount === undefined ? {} : { amount: options.amount }),
        ...(options.rate === undefined ? {} : { overallRate: options.rate }),
        timeout: 10,
        requests: [request],
      },
      (error, result) => {
        const peakRssMiB = stopSampling();
        const cpuAfter = pid === undefined ? undefined : cpuTimeMs(pid);
        const cpuMsPerRequest =
          cpuBefore === undefined || cpuAfter === undefined || latencies.length === 0
            ? undefined
            : (cpuAfter - cpuBefore) / latencies.length;
        if (error) {
          reject(error);
          return;
        }
        const sorted = Float64Array.from(latencies).sort();
        resolveResult({
          requests: latencies.length,
          // autocannon's duration is whole seconds (it notices the end on a one-second tick), too coarse for a run
          // of a fixed amount: that one is timed to its last answer.
          requestsPerSecond:
            latencies.length /
            (options.amount === undefined
              ? result.duration || options.durationSeconds
              : (lastAnswered - started) / 1000),
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          failures,
          errors: errors + result.timeouts,
          peakRssMiB,
          cpuMsPerRequest,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      lastAnswered = performance.now();
      if (statusCode < 200 || statusCode > 299) failures[statusCode] = (failures[statusCode] ?? 0) + 1;
    });
    instance.on('reqError', () => {
      errors++;
    });
  });
}
