import { describe, expect, it } from '@jest/globals';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ScopedStorage } from './scoped-storage.js';

describe(ScopedStorage.name, () => {
  it('gives everything a run awaits its store, and nothing outside it', async () => {
    const sut = new ScopedStorage<string>();
    expect(sut.getStore()).toBeUndefined();
    const seen = await sut.run('a', async () => {
      await nextTurn();
      const inner = await Promise.resolve().then(() => sut.getStore());
      return [sut.getStore(), inner];
    });
    expect(seen).toEqual(['a', 'a']);
    expect(sut.getStore()).toBeUndefined();
  });

  it('keeps concurrent runs apart, and each run’s store until it settles', async () => {
    const sut = new ScopedStorage<string>();
    let releaseA!: () => void;
    const a = sut.run('a', async () => {
      await new Promise<void>((release) => (releaseA = release));
      return sut.getStore();
    });
    // B starts and ends while A is still under way: A keeps its store.
    expect(await sut.run('b', async () => (await nextTurn(), sut.getStore()))).toBe('b');
    releaseA();
    expect(await a).toBe('a');
  });

  it('leaves no store to a continuation that outlives its run', async () => {
    const sut = new ScopedStorage<string>();
    let late!: Promise<string | undefined>;
    await sut.run('a', async () => {
      late = new Promise((resolve) => setTimeout(() => resolve(sut.getStore()), 20));
      await nextTurn();
    });
    expect(await late).toBeUndefined();
    // And the storage still works for the next run.
    expect(await sut.run('b', async () => (await nextTurn(), sut.getStore()))).toBe('b');
  });

  it('ends the scope of a run whose work fails, at once or later', async () => {
    const sut = new ScopedStorage<string>();
    const failure = new Error('no');
    expect(() =>
      sut.run('a', () => {
        throw failure;
      }),
    ).toThrow(failure);
    await expect(sut.run('b', () => Promise.reject(failure))).rejects.toBe(failure);
    expect(sut.getStore()).toBeUndefined();
    expect(await sut.run('c', async () => (await nextTurn(), sut.getStore()))).toBe('c');
  });
});
