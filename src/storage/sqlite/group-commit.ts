import { type CommitChanges, mergeChanges } from './commit-changes.js';
import type { SqliteDb } from './open-database.js';
import { writeTransaction } from './open-database.js';
import { type OpsCommitter, runOps, type WriteOp } from './write-ops.js';

interface PendingWrite {
  write: () => void;
  changes: CommitChanges;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: writes queued during one turn of the event loop share one IMMEDIATE transaction. A
 * failing write rolls back alone and rejects only its caller: the batch is then redone with each write
 * in its own savepoint.
 * A commit costs far more than the rows it carries (WAL append, checkpoints), so under load this
 * multiplies write throughput; callers still resolve only once their rows are committed.
 */
export class GroupCommit implements OpsCommitter {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private readonly savepoint: (write: () => void) => void;

  constructor(private readonly db: SqliteDb) {
    // Called inside the outer transaction, better-sqlite3 runs this as a SAVEPOINT.
    this.savepoint = db.transaction((write: () => void) => write());
  }

  /**
   * Runs `write` (synchronous SQL) in the next group transaction; resolves after the commit.
   * `changes`: what it changes, for other processes' caches (commit-changes.ts).
   */
  commit(write: () => void, changes: CommitChanges): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ write, changes, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** `commit` for writes given as data (the form the writer thread also takes). */
  commitOps(ops: readonly WriteOp[], changes: CommitChanges): Promise<void> {
    return this.commit(() => runOps(this.db, ops), changes);
  }

  /** Commits what is queued at once instead of on the next turn: before the database closes. */
  flushNow(): void {
    this.flush();
  }

  private flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    // Writes almost never fail, and a savepoint per write costs two statements: try the batch bare
    // first, and only when one write throws roll it all back and redo each in its own savepoint.
    const changes = mergeChanges(batch.map((item) => item.changes));
    try {
      writeTransaction(
        this.db,
        () => {
          for (const item of batch) item.write();
        },
        changes,
      );
    } catch {
      this.flushIsolated(batch, changes);
      return;
    }
    for (const item of batch) item.resolve();
  }

  private flushIsolated(batch: PendingWrite[], changes: CommitChanges): void {
    const failures = new Map<PendingWrite, unknown>();
    try {
      writeTransaction(
        this.db,
        () => {
          for (const item of batch) {
            try {
              this.savepoint(item.write);
            } catch (err) {
              failures.set(item, err);
            }
          }
        },
        changes,
      );
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
