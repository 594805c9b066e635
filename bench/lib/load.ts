import autocannon, { type RequestDefinition } from 'autocannon';
import { cpuSince, cpuTimeMs, processTreeCpuMs, sampleRss, type ServerUnderTest } from './servers.js';

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
  /** The database cluster's postmaster: its and its backends' CPU per answered request is reported too. */
  databasePid?: number;
  /** Where every answer's latency is also kept (several runs' percentiles taken together: `combineRuns`). */
  keepLatencies?: number[];
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  /** How long the run lasted, in seconds (`requests / requestsPerSecond`, kept for runs with no answer). */
  seconds: number;
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
  /** CPU time the database cluster spent per answered request (the embedded cluster only): on the same cores. */
  databaseCpuMsPerRequest?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function percentiles(latencies: number[]): Pick<LoadResult, 'requests' | 'p50' | 'p95' | 'p99'> {
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

/**
 * Several runs of one server as one: requests and CPU summed, req/s over their summed durations, percentiles over
 * every latency kept (`keepLatencies`); a run with no answer counts as an error.
 */
export function combineRuns(runs: LoadResult[], latencies: number[]): LoadResult {
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const failures: Record<string, number> = {};
  for (const run of runs)
    for (const [status, count] of Object.entries(run.failures)) failures[status] = (failures[status] ?? 0) + count;
  const combined = percentiles(latencies);
  const perRequest = (field: 'cpuMsPerRequest' | 'databaseCpuMsPerRequest'): number | undefined => {
    if (combined.requests === 0 || runs.some((run) => run[field] === undefined)) return undefined;
    return runs.reduce((sum, run) => sum + (run[field] ?? 0) * run.requests, 0) / combined.requests;
  };
  const peaks = runs.flatMap((run) => (run.peakRssMiB === undefined ? [] : [run.peakRssMiB]));
  return {
    ...combined,
    requestsPerSecond: seconds > 0 ? combined.requests / seconds : 0,
    seconds,
    failures,
    // A run that got no answer at all is a stall (a hung request is cut off when its run ends, never timed out).
    errors: runs.reduce((sum, run) => sum + run.errors + (run.requests === 0 ? 1 : 0), 0),
    peakRssMiB: peaks.length > 0 ? Math.max(...peaks) : undefined,
    cpuMsPerRequest: perRequest('cpuMsPerRequest'),
    databaseCpuMsPerRequest: perRequest('databaseCpuMsPerRequest'),
  };
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
  const databaseCpu = (): Map<number, number> | undefined =>
    options.databasePid === undefined ? undefined : processTreeCpuMs(options.databasePid);
  const databaseBefore = databaseCpu();
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
        const databaseAfter = databaseCpu();
        const databaseCpuMsPerRequest =
          databaseBefore === undefined || databaseAfter === undefined || latencies.length === 0
            ? undefined
            : cpuSince(databaseBefore, databaseAfter) / latencies.length;
        if (error) {
          reject(error);
          return;
        }
        // autocannon's duration is whole seconds (it notices the end on a one-second tick), too coarse for a run of
        // a fixed amount: that one is timed to its last answer.
        const seconds =
          options.amount === undefined ? result.duration || options.durationSeconds : (lastAnswered - started) / 1000;
        resolveResult({
          ...percentiles(latencies),
          requestsPerSecond: seconds > 0 ? latencies.length / seconds : 0,
          seconds,
          failures,
          errors: errors + result.timeouts,
          peakRssMiB,
          cpuMsPerRequest,
          databaseCpuMsPerRequest,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      options.keepLatencies?.push(responseTime);
      lastAnswered = performance.now();
      if (statusCode < 200 || statusCode > 299) failures[statusCode] = (failures[statusCode] ?? 0) + 1;
    });
    instance.on('reqError', () => {
      errors++;
    });
  });
}
