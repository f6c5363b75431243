/** Releases the locks taken by one `KeyedMutex.lock` call. */
export type Release = () => void;

/**
 * An in-process async mutex per string key: callers of one key run one at a time, in arrival order;
 * different keys run concurrently. Keys with no holder and no waiter cost nothing (the map entry is
 * dropped on release), so millions of device keys do not accumulate.
 *
 * Every track takes two or three of these, nearly always free: a free set is taken at once, with no
 * promise per key (the promise chains this used to build were a twentieth of a track's allocations,
 * 2026-11-26 heap profile). A released key passes straight to its first waiter, so none can barge in.
 */
export class KeyedMutex {
  /** Held keys, each with its waiters in arrival order (null: held, nobody waiting). */
  private readonly held = new Map<string, Array<() => void> | null>();

  /**
   * Takes the locks of every key, in sorted order so that two callers naming overlapping keys never
   * deadlock. A caller that already holds locks may take more only if no holder of those keys ever
   * waits for a key it holds (the tracking code takes user `_id` keys last for this reason).
   */
  lock(keys: readonly string[]): Promise<Release> {
    const sorted = keys.length === 1 ? keys : [...new Set(keys)].sort();
    if (sorted.every((key) => !this.held.has(key))) {
      for (const key of sorted) this.held.set(key, null);
      return Promise.resolve(this.releaser(sorted));
    }
    return this.lockInTurn(sorted);
  }

  /** Whether someone holds (or waits for) `key` now; a `lock` called right after on a free key takes it at once. */
  isHeld(key: string): boolean {
    return this.held.has(key);
  }

  /** Runs `fn` holding the lock of `key`. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.lock([key]);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private async lockInTurn(sorted: readonly string[]): Promise<Release> {
    for (const key of sorted) {
      const waiters = this.held.get(key);
      if (waiters === undefined) this.held.set(key, null);
      else
        await new Promise<void>((resolve) => {
          if (waiters === null) this.held.set(key, [resolve]);
          else waiters.push(resolve);
        });
    }
    return this.releaser(sorted);
  }

  private releaser(keys: readonly string[]): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (let i = keys.length - 1; i >= 0; i--) this.pass(keys[i]!);
    };
  }

  /** Hands `key` to its first waiter, or frees it. */
  private pass(key: string): void {
    const waiters = this.held.get(key);
    const next = waiters?.shift();
    if (next === undefined) {
      this.held.delete(key);
      return;
    }
    if (waiters!.length === 0) this.held.set(key, null);
    next();
  }
}
