import { sweepIsolation } from './isolation-sweep.js';

/**
 * Team isolation, swept over the served OpenAPI document (test/reliability/isolation-sweep.ts): team A gets one
 * record of every resource, then team B calls every operation with A's ids and must get `404 {error}`, and every
 * list, export and the events feed must show B none of A's records.
 */
sweepIsolation('another team’s records, over every operation of the OpenAPI document', async (sut) => {
  const teamA = await sut.createTeam('Team A');
  const teamB = await sut.createTeam('Team B');
  return {
    owner: { apiKey: teamA.apiKey, teamId: teamA.teamId },
    other: { apiKey: teamB.apiKey, teamId: teamB.teamId },
  };
});
