import { type SqliteDb, writeTransaction } from './open-database.js';
import { runOps, type WriteOp } from './write-ops.js';

interface PendingWrite {
  ops: readonly WriteOp[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: the track writes that reach the store in one turn of the event loop share one
 * IMMEDIATE transaction, and each caller resolves once it has committed. A commit costs more than the
 * rows of one track (the WAL frames of every page it touched); see docs/adr/sqlite-one-process.md for
 * what it was measured to be worth. A write that throws rolls back alone: the batch is then redone
 * with each write in its own savepoint.
 */
export class GroupCommit {
  private queue: PendingWrite[] = [];
  private scheduled = false;

  constructor(private readonly db: SqliteDb) {}

  /** Commits `ops` with the other writes of this turn; resolves after the commit. */
  commit(ops: readonly WriteOp[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ops, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is queued now (the store calls it before closing). */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    try {
      writeTransaction(this.db, () => {
        for (const write of batch) runOps(this.db, write.ops);
      });
    } catch {
      this.flushEachAlone(batch);
      return;
    }
    for (const write of batch) write.resolve();
  }

  private flushEachAlone(batch: PendingWrite[]): void {
    const failures = new Map<PendingWrite, unknown>();
    try {
      writeTransaction(this.db, () => {
        for (const write of batch) {
          try {
            // Inside the outer transaction better-sqlite3 runs this one as a savepoint.
            writeTransaction(this.db, () => runOps(this.db, write.ops));
          } catch (err) {
            failures.set(write, err);
          }
        }
      });
    } catch (err) {
      for (const write of batch) write.reject(err);
      return;
    }
    for (const write of batch) {
      if (failures.has(write)) write.reject(failures.get(write));
      else write.resolve();
    }
  }
}
