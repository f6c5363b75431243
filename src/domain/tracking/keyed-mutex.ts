/** Releases the locks taken by one `KeyedMutex.lock` call. */
export type Release = () => void;

/**
 * An in-process async mutex per string key: callers of one key run one at a time, in arrival order;
 * different keys run concurrently. Keys with no holder and no waiter cost nothing (the map entry is
 * dropped on release), so millions of device keys do not accumulate.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Takes the locks of every key, in sorted order so that two callers naming overlapping keys never
   * deadlock. A caller that already holds locks may take more only if no holder of those keys ever
   * waits for a key it holds (the tracking code takes user `_id` keys last for this reason).
   */
  async lock(keys: readonly string[]): Promise<Release> {
    const sorted = [...new Set(keys)].sort();
    const releases: Release[] = [];
    try {
      for (const key of sorted) releases.push(await this.lockOne(key));
    } catch (err) {
      for (const r of releases) r();
      throw err;
    }
    return () => {
      for (const r of releases.reverse()) r();
    };
  }

  /** Whether someone holds (or waits for) `key` now; a `lock` called right after on a free key takes it at once. */
  isHeld(key: string): boolean {
    return this.tails.has(key);
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

  private async lockOne(key: string): Promise<Release> {
    const previous = this.tails.get(key);
    let open!: () => void;
    const mine = new Promise<void>((resolve) => {
      open = resolve;
    });
    const tail = previous ? previous.then(() => mine) : mine;
    this.tails.set(key, tail);
    if (previous) await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
