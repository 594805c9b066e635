const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5s,5m,30m` → [5000, 300000, 1800000] (the format WEBHOOK_RETRY_SCHEDULE is checked against at start-up). */
export function parseSchedule(text: string): number[] {
  return text.split(',').map((part) => {
    const match = /^\s*(\d+)(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`not a duration: ${part}`);
    return Number(match[1]) * UNIT_MS[match[2]];
  });
}

/** The wait before retry `n` (1-based) with ±10 % jitter, or undefined when the schedule is used up. */
export function retryDelay(schedule: number[], retry: number, random: () => number = Math.random): number | undefined {
  const base = schedule[retry - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (0.9 + 0.2 * random()));
}
