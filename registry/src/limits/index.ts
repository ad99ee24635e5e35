export type { RateLimitRepository } from './rate-limit-repository.js';
export { StoredRateLimiter, type AttemptLimiter, type StoredRateLimiterOptions } from './stored-rate-limiter.js';
export { SqliteRateLimitRepository } from './sqlite-rate-limit-repository.js';
export { PostgresRateLimitRepository } from './postgres-rate-limit-repository.js';
export { LIMITS_MIGRATIONS, LIMITS_MODULE, POSTGRES_LIMITS_MIGRATIONS } from './limits-migrations.js';
