import { SetMetadata } from '@nestjs/common';

export const TEST_KEYS_ONLY = 'auth:test-keys-only';

/**
 * Opens a route to test keys (`ppk_test_…`) only: `ApiKeyGuard` answers a live key `403 {error: refusal}` right
 * after authentication, so before any query or body validation (CONTRACT "Test mode": a live key → 403).
 */
export const TestKeysOnly = (refusal: string): MethodDecorator & ClassDecorator => SetMetadata(TEST_KEYS_ONLY, refusal);
