import { describe, expect, it } from '@jest/globals';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestSeries } from './request-series.js';

const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LABELS = ['route', 'method', 'status'] as const;
const OBSERVED: [string, string, number, number][] = [
  ['/v1/units', 'GET', 200, 0.003],
  ['/v1/units', 'GET', 200, 0.005],
  ['/v1/units', 'GET', 200, 0.2],
  ['/v1/units', 'GET', 404, 12],
  ['/v1/units/:unitId', 'PUT', 200, 0.04],
  ['(unmatched)', 'GET', 404, 0.0001],
];

describe(RequestSeries.name, () => {
  it('writes the exposition prom-client’s own counter and histogram write for the same requests', async () => {
    const theirs = new Registry();
    const counter = new Counter({ name: 'requests_total', help: 'Requests', labelNames: LABELS, registers: [theirs] });
    const histogram = new Histogram({
      name: 'request_seconds',
      help: 'Durations',
      labelNames: LABELS,
      buckets: BOUNDS,
      registers: [theirs],
    });
    const ours = new Registry();
    const sut = new RequestSeries(BOUNDS);
    ours.registerMetric(sut.counter('requests_total', 'Requests'));
    ours.registerMetric(sut.histogram('request_seconds', 'Durations'));

    for (const [route, method, status, seconds] of OBSERVED) {
      counter.inc({ route, method, status: String(status) });
      histogram.observe({ route, method, status: String(status) }, seconds);
      sut.record(route, method, status, seconds);
    }
    const expected = await theirs.metrics();
    expect(expected).toContain('request_seconds_bucket{le="0.005",route="/v1/units",method="GET",status="200"} 2');
    expect(await ours.metrics()).toBe(expected);
  });

  it('starts again from nothing when the registry is reset', async () => {
    const registry = new Registry();
    const sut = new RequestSeries(BOUNDS);
    registry.registerMetric(sut.histogram('request_seconds', 'Durations'));
    sut.record('/v1/units', 'GET', 200, 0.01);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('/v1/units');
  });
});
