export { ApiKeysModule } from './api-keys.module.js';
export * from './api-keys.service.js';
export { ApiKeyCache, REVOCATION_CHANNEL } from './api-key-cache.js';
export * from './api-key-secret.js';
export { ApiKey } from './api-key.entity.js';
export { Team } from './team.entity.js';
export * from './usage-recorder.js';
