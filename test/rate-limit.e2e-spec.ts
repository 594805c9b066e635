import { describeRateLimits } from './rate-limit.suite.js';

// The in-memory store (no REDIS_URL): the default for a single instance. The same suite runs against Redis
// in rate-limit-redis.e2e-spec.ts.
describeRateLimits(undefined);
