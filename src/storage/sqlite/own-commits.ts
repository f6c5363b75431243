import { WalIndexWatch } from './wal-index-watch.js';

/** Values remembered: a look that finds more new ones than this reads the commit log. A power of two. */
export const OWN_COMMIT_SLOTS = 4096;
const MASK = OWN_COMMIT_SLOTS - 1;

/**
 * Which values of the WAL-index change counter this process's own commits made, so that a look at the
 * counter tells "only we committed since" from "another process did" for a microsecond's read, and
 * only the second reads the commit log (tens of microseconds). That lets every track look first, with
 * no window in which another process's user write goes unseen.
 *
 * A commit marks its value while it holds the write lock, just before COMMIT: no other connection can
 * commit in between, so the counter then holds the value before ours and ours is the next. Marking
 * before the commit means no look can see the value before it is marked; a COMMIT that fails unmarks it
 * (still under the lock on the writer thread; on the event loop no look can run in between). Counting
 * commits as their acknowledgements arrive instead would be wrong: a late one would stand in for a
 * foreign commit of the same count.
 *
 * The marks live in shared memory, one slot per value modulo the size, written by the event loop's
 * connection and the writer thread's (whose copy of `claim` is in writer-thread.ts). An empty slot
 * holds its index plus one, which no value of that slot can equal.
 */
export class OwnCommits {
  readonly buffer = new SharedArrayBuffer(OWN_COMMIT_SLOTS * 4);
  private readonly slots = new Int32Array(this.buffer);

  constructor(readonly header: WalIndexWatch) {
    this.clear();
  }

  /** For the database at `file`; null where its WAL index cannot be read (an in-memory database). */
  static open(file: string): OwnCommits | null {
    const header = new WalIndexWatch(file);
    if (header.changeCounter() !== null) return new OwnCommits(header);
    header.close();
    return null;
  }

  /** Holding the write lock, just before COMMIT: marks the value the commit will give the counter. */
  claim(): number | null {
    const now = this.header.changeCounter();
    if (now === null) return null;
    const value = (now + 1) >>> 0;
    Atomics.store(this.slots, value & MASK, value | 0);
    return value;
  }

  /** The commit that claimed `value` did not happen. */
  unclaim(value: number): void {
    Atomics.compareExchange(this.slots, value & MASK, value | 0, (value & MASK) + 1);
  }

  /** Whether every counter value after `from`, up to `to`, was one of this process's commits. */
  covers(from: number, to: number): boolean {
    const n = (to - from) >>> 0;
    if (n > OWN_COMMIT_SLOTS) return false;
    for (let k = 1; k <= n; k++) {
      const value = (from + k) >>> 0;
      if (Atomics.load(this.slots, value & MASK) !== (value | 0)) return false;
    }
    return true;
  }

  /** Forgets every mark: after the counter jumped, old marks could match values it reaches again. */
  clear(): void {
    for (let i = 0; i < OWN_COMMIT_SLOTS; i++) Atomics.store(this.slots, i, i + 1);
  }
}
