/** The time span the seed data covers: fixed, so a seed gives the same rows whatever day it runs. */
export const DAY = 86_400_000;
export const HISTORY_END = Date.UTC(2025, 10, 1);
export const HISTORY_START = HISTORY_END - 730 * DAY;

export const iso = (ms: number): string => new Date(ms).toISOString();
