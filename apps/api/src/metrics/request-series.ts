import { Counter, type Metric } from 'prom-client';

/** The labels of one series of the request metrics. */
export interface RequestLabels {
  route: string;
  method: string;
  status: string;
}

interface Series {
  labels: RequestLabels;
  count: number;
  sum: number;
  /** Observations per upper bound (not cumulative); beyond the last bound only in `count`. */
  inBucket: number[];
}

/**
 * Requests counted and timed by route, method and status: what prom-client's `Counter.inc` and `Histogram.observe`
 * did per request (each hashes its labels into a string key, and the labels object was made anew), as one map
 * lookup by a key made of the three values and a few additions. The series are handed to prom-client only when
 * scraped (`counter`, `histogram`), in the exposition prom-client's own counter and histogram write.
 */
export class RequestSeries {
  private readonly series = new Map<string, Series>();

  constructor(private readonly bounds: readonly number[]) {}

  record(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { route, method, status: String(status) },
        count: 0,
        sum: 0,
        inBucket: this.bounds.map(() => 0),
      };
      this.series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    const bucket = this.bounds.findIndex((bound) => seconds <= bound);
    if (bucket !== -1) series.inBucket[bucket] += 1;
  }

  /** A counter for prom-client's registry over these series, each series' count set just before it is read. */
  counter(name: string, help: string): Counter<keyof RequestLabels> {
    const series = this.series;
    return new Counter({
      name,
      help,
      labelNames: ['route', 'method', 'status'],
      registers: [],
      collect(this: Counter<keyof RequestLabels>): void {
        this.reset();
        for (const { labels, count } of series.values()) this.inc(labels, count);
      },
    });
  }

  /**
   * A histogram for prom-client's registry over these series: its buckets cumulative and labelled `le` first, then
   * `+Inf`, `_sum` and `_count`, as prom-client's `Histogram` writes them.
   */
  histogram(name: string, help: string): Metric {
    const values = (): { labels: object; value: number; metricName: string }[] =>
      [...this.series.values()].flatMap(({ labels, count, sum, inBucket }) => {
        let cumulative = 0;
        const buckets = this.bounds.map((bound, index) => {
          cumulative += inBucket[index];
          return { labels: { le: bound, ...labels }, value: cumulative, metricName: `${name}_bucket` };
        });
        return [
          ...buckets,
          { labels: { le: '+Inf', ...labels }, value: count, metricName: `${name}_bucket` },
          { labels: { ...labels }, value: sum, metricName: `${name}_sum` },
          { labels: { ...labels }, value: count, metricName: `${name}_count` },
        ];
      });
    const metric = {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: () => Promise.resolve({ name, help, type: 'histogram', aggregator: 'sum', values: values() }),
      reset: () => this.series.clear(),
    };
    // The registry reads a metric through these members only (`get`, `reset`, `name`, `help`, `type`, `aggregator`).
    return metric as unknown as Metric;
  }
}
