import { describe, expect, it } from '@jest/globals';
import { UploadGarbage } from './upload-garbage.js';

const MIB = 1024 * 1024;

/** An `UploadGarbage` collecting every `everyMiB` per upload, and how many times it has collected. */
function pace(everyMiB = 2, atMostMiB = 8) {
  const kinds: string[] = [];
  const garbage = new UploadGarbage((options) => kinds.push(options.type), everyMiB * MIB, atMostMiB * MIB);
  return { garbage, collections: () => kinds.length, kinds };
}

describe('UploadGarbage', () => {
  it('collects the young generation once an upload alone has brought in 2 MiB, and again 2 MiB later', () => {
    const { garbage, collections, kinds } = pace();
    const ended = garbage.started();
    for (let i = 0; i < 31; i += 1) garbage.received(64 * 1024);
    expect(collections()).toBe(0);
    garbage.received(64 * 1024);
    expect(collections()).toBe(1);
    for (let i = 0; i < 32; i += 1) garbage.received(64 * 1024);
    expect(collections()).toBe(2);
    expect(kinds).toEqual(['minor', 'minor']);
    ended();
  });

  it('waits 2 MiB for each upload arriving, so three side by side collect every 6 MiB', () => {
    const { garbage, collections } = pace();
    const ends = [garbage.started(), garbage.started(), garbage.started()];
    expect(garbage.inFlight).toBe(3);
    garbage.received(6 * MIB - 1);
    expect(collections()).toBe(0);
    garbage.received(1);
    expect(collections()).toBe(1);
    // Two of them end: the pace is one upload's again.
    ends[0]();
    ends[1]();
    garbage.received(2 * MIB);
    expect(collections()).toBe(2);
    ends[2]();
  });

  it('stops stretching the interval at 8 MiB, however many uploads are arriving (stalled ones included)', () => {
    const { garbage, collections } = pace();
    const ends = Array.from({ length: 10 }, () => garbage.started());
    garbage.received(8 * MIB - 1);
    expect(collections()).toBe(0);
    garbage.received(1);
    expect(collections()).toBe(1);
    for (const ended of ends) ended();
  });

  it('counts an upload’s end once, however many of its end events call it', () => {
    const { garbage } = pace();
    const ended = garbage.started();
    garbage.started();
    ended();
    ended();
    ended();
    expect(garbage.inFlight).toBe(1);
  });

  it('paces as for one upload when bytes arrive with none counted in flight', () => {
    const { garbage, collections } = pace();
    garbage.received(2 * MIB);
    expect(collections()).toBe(1);
  });

  it('works without a collector (a process started without --expose-gc): nothing throws, uploads are counted', () => {
    const garbage = new UploadGarbage(undefined);
    const ended = garbage.started();
    expect(() => garbage.received(100 * MIB)).not.toThrow();
    expect(garbage.inFlight).toBe(1);
    ended();
    expect(garbage.inFlight).toBe(0);
  });
});
