import type { SqliteDb } from './open-database.js';
import { writeTransaction } from './open-database.js';

interface PendingWrite {
  write: () => void;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: writes queued during one turn of the event loop share one IMMEDIATE transaction,
 * each inside its own savepoint, so a failing write rolls back alone and rejects only its caller.
 * A commit costs far more than the rows it carries (WAL append, checkpoints), so under load this
 * multiplies write throughput; callers still resolve only once their rows are committed.
 */
export class GroupCommit {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private readonly savepoint: (write: () => void) => void;

  constructor(private readonly db: SqliteDb) {
    // Called inside the outer transaction, better-sqlite3 runs this as a SAVEPOINT.
    this.savepoint = db.transaction((write: () => void) => write());
  }

  /** Runs `write` (synchronous SQL) in the next group transaction; resolves after the commit. */
  commit(write: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    const failures = new Map<PendingWrite, unknown>();
    try {
      writeTransaction(this.db, () => {
        for (const item of batch) {
          try {
            this.savepoint(item.write);
          } catch (err) {
            failures.set(item, err);
          }
        }
      });
    } catch (err) {
      for (const item of batch) item.reject(err);
      return;
    }
    for (const item of batch) {
      if (failures.has(item)) item.reject(failures.get(item));
      else item.resolve();
    }
  }
}
