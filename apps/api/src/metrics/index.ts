export { ApiMetrics, UNMATCHED_ROUTE } from './api-metrics.js';
export { MetricsModule } from './metrics.module.js';
