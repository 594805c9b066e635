import { ApiKeysService } from '../../apps/api/src/api-keys/index.js';
import type { TestApp } from '../support/test-app.js';
import { sweepIsolation, type KeyOfTeam } from './isolation-sweep.js';

/**
 * Test mode (CONTRACT "Test mode (sandbox)"), swept over the served OpenAPI document like team isolation
 * (test/reliability/isolation-sweep.ts): a live key and a test key of the same team see nothing of each other's
 * records, notes, attachments, history, events, webhook endpoints and deliveries, imports and exports, and
 * change none of them, both ways.
 */
async function liveAndTestKeys(sut: TestApp): Promise<{ live: KeyOfTeam; test: KeyOfTeam }> {
  const live = await sut.createTeam('Live team');
  const test = await sut.app.get(ApiKeysService).createKey(live.teamId, 'sweep', { test: true });
  return {
    live: { apiKey: live.apiKey, teamId: live.teamId },
    test: { apiKey: test.apiKey, teamId: test.sandboxTeamId as string },
  };
}

sweepIsolation('a live key’s records, as its team’s test key, over every operation', async (sut) => {
  const { live, test } = await liveAndTestKeys(sut);
  return { owner: live, other: test };
});

sweepIsolation('a test key’s records, as its team’s live key, over every operation', async (sut) => {
  const { live, test } = await liveAndTestKeys(sut);
  return { owner: test, other: live };
});
