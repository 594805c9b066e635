import { describe, expect, it } from '@jest/globals';
import { HashingBusyError, HashingGate } from './hashing-gate.js';

/** A hash the test finishes by hand: `started` lists the work that got a turn, in order. */
function controllableHashes() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const hash = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.set(name, () => resolve(name));
    });
  const finish = async (name: string) => {
    finishers.get(name)?.();
    // Let the gate hand the turn over (a few microtask hops) before the test looks again.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { started, hash, finish };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe(HashingGate.name, () => {
  it('runs at most `concurrency` hashes; the next waits and gets the first free turn', async () => {
    const sut = new HashingGate({ concurrency: 2, queue: 4, perClient: 4 });
    const { started, hash, finish } = controllableHashes();
    const results = ['a', 'b', 'c'].map((name) => sut.run(`client-${name}`, hash(name)));
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(sut.load).toEqual({ running: 2, waiting: 1, clients: 3 });
    await finish('a');
    expect(started).toEqual(['a', 'b', 'c']);
    await finish('b');
    await finish('c');
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c']);
    expect(sut.load).toEqual({ running: 0, waiting: 0, clients: 0 });
  });

  it('refuses a client past its share at once, while another address still gets a turn', async () => {
    const sut = new HashingGate({ concurrency: 1, queue: 10, perClient: 2 });
    const { started, hash, finish } = controllableHashes();
    const flood = ['f1', 'f2'].map((name) => sut.run('203.0.113.7', hash(name)));
    await expect(sut.run('203.0.113.7', hash('f3'))).rejects.toEqual(new HashingBusyError('client'));
    const legitimate = sut.run('198.51.100.1', hash('legit'));
    await settle();
    expect(started).toEqual(['f1']);
    await finish('f1');
    await finish('f2');
    // The flooding address's third hash never ran; the other address got the next turn after the one it queued behind.
    expect(started).toEqual(['f1', 'f2', 'legit']);
    await finish('legit');
    await expect(legitimate).resolves.toBe('legit');
    await expect(Promise.all(flood)).resolves.toEqual(['f1', 'f2']);
  });

  it('refuses everyone at once when every turn and waiting place is taken, and frees them as hashes finish', async () => {
    const sut = new HashingGate({ concurrency: 1, queue: 1, perClient: 1 });
    const { hash, finish } = controllableHashes();
    const first = sut.run('a', hash('a'));
    const second = sut.run('b', hash('b'));
    await expect(sut.run('c', hash('c'))).rejects.toEqual(new HashingBusyError('everyone'));
    await finish('a');
    await finish('b');
    await Promise.all([first, second]);
    const third = sut.run('c', hash('c'));
    await settle();
    await finish('c');
    await expect(third).resolves.toBe('c');
  });

  it('frees the turn and the client’s share when the hash fails', async () => {
    const sut = new HashingGate({ concurrency: 1, queue: 0, perClient: 1 });
    await expect(sut.run('a', () => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed');
    expect(sut.load).toEqual({ running: 0, waiting: 0, clients: 0 });
    await expect(sut.run('a', () => Promise.resolve('again'))).resolves.toBe('again');
  });
});
