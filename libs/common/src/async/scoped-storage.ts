import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * On Node 20 and 22, an `AsyncLocalStorage` that has been entered keeps V8's promise hooks on for every promise the
 * process makes from then on, a cost every request pays (docs/performance-log.md, "`AsyncLocalStorage` only while
 * it is in use"). Node 24 propagates stores without promise hooks (`AsyncContextFrame`), so there it costs nothing.
 */
const PROMISE_HOOKED = Number(process.versions.node.split('.')[0]) < 24;

/**
 * An `AsyncLocalStorage` for a scope that runs now and then (a transaction, an export's batches): on only while some
 * `run` is under way, off again when the last one settles, so the promise hooks cost nothing between runs. Outside
 * every run `getStore()` answers undefined, as it would anyway; a continuation left behind by a finished run (a
 * promise nobody awaited) finds no store once every run has ended, instead of the store of a scope that is over.
 */
export class ScopedStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private running = 0;

  /** Runs `work` with `store` as the store of everything it awaits; the store's scope ends when `work` settles. */
  run<R>(store: T, work: () => Promise<R>): Promise<R> {
    this.running += 1;
    let result: Promise<R>;
    try {
      result = this.storage.run(store, work);
    } catch (error) {
      this.ended();
      throw error;
    }
    return result.finally(() => this.ended());
  }

  getStore(): T | undefined {
    return this.running === 0 ? undefined : this.storage.getStore();
  }

  private ended(): void {
    this.running -= 1;
    if (this.running === 0 && PROMISE_HOOKED) this.storage.disable();
  }
}
