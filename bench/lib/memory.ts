import { writeFileSync } from 'node:fs';
import { memoryMiB } from './servers.js';

/** How a peak RSS was taken: the kernel's VmHWM after resetting it, or VmRSS sampled on a timer. */
export type PeakSource = 'VmHWM' | 'sampled';

/** A peak RSS, MiB, and how it was taken. */
export interface MeasuredPeak {
  peakMiB: number;
  peakFrom: PeakSource;
}

/** A process's peak RSS being watched: its RSS when the watch began, and `stop` for the peak since. */
export interface PeakWatch {
  /** VmRSS just before the watch began, MiB. */
  rssBeforeMiB: number;
  peakFrom: PeakSource;
  /** Ends the sampling; the peak since the watch began, MiB. */
  stop: () => MeasuredPeak;
}

/** Sets the process's VmHWM back to its VmRSS (Linux `clear_refs` 5); false where that is not allowed. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Watches the process's peak RSS from now until `stop`: by VmHWM when it can be reset to VmRSS, otherwise the highest
 * VmRSS sampled every `sampleEveryMs` (the timer runs in both cases).
 */
export function watchPeak(pid: number, sampleEveryMs: number): PeakWatch {
  const rssBeforeMiB = memoryMiB(pid, 'VmRSS') ?? Number.NaN;
  const peakFrom: PeakSource = resetPeak(pid) ? 'VmHWM' : 'sampled';
  let sampled = rssBeforeMiB;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, memoryMiB(pid, 'VmRSS') ?? sampled);
  }, sampleEveryMs);
  return {
    rssBeforeMiB,
    peakFrom,
    stop: () => {
      clearInterval(sampler);
      const peakMiB =
        peakFrom === 'VmHWM'
          ? (memoryMiB(pid, 'VmHWM') ?? Number.NaN)
          : Math.max(sampled, memoryMiB(pid, 'VmRSS') ?? 0);
      return { peakMiB, peakFrom };
    },
  };
}
