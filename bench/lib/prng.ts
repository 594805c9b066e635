/**
 * A small seeded PRNG (mulberry32) and the draws the generators need. The seed data must be the same on every
 * machine for a given seed, so nothing here may touch Math.random or the clock.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One of `choices`, each drawn in proportion to its weight. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let draw = this.next() * total;
    for (const [value, weight] of choices) {
      draw -= weight;
      if (draw < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  /** `count` distinct items (fewer when there are not enough). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const taken: T[] = [];
    while (taken.length < count && pool.length > 0) {
      const index = Math.floor(this.next() * pool.length);
      taken.push(pool[index]);
      pool[index] = pool[pool.length - 1];
      pool.pop();
    }
    return taken;
  }

  /** A version 4 UUID made from this generator, so ids (and therefore id tie-breaks) are reproducible. */
  uuid(): string {
    const hex: string[] = [];
    for (let i = 0; i < 4; i++)
      hex.push(
        Math.floor(this.next() * 4294967296)
          .toString(16)
          .padStart(8, '0'),
      );
    const raw = hex.join('');
    const variant = ((parseInt(raw[16], 16) & 0x3) | 0x8).toString(16);
    return `${raw.slice(0, 8)}-${raw.slice(8, 12)}-4${raw.slice(13, 16)}-${variant}${raw.slice(17, 20)}-${raw.slice(20, 32)}`;
  }

  /** A child generator for one part of the data, so adding a table later does not reshuffle the others. */
  fork(label: string): Rng {
    return new Rng(hashSeed(this.state, label));
  }
}

/** Mixes a number and a label into a 32-bit seed (FNV-1a over the label, then the number). */
export function hashSeed(seed: number, label: string): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
