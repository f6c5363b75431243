import { type CommitChanges, changesNow, type LaterChanges, mergeChanges } from './commit-changes.js';
import type { SqliteDb } from './open-database.js';
import { writeTransaction } from './open-database.js';
import { type OpsCommitter, runOps, type WriteOp } from './write-ops.js';

/**
 * How long a batch keeps retrying without blocking while another connection holds the write lock
 * before it waits in SQLite's busy handler like any other write (and fails after busy_timeout).
 */
const RETRY_WITHOUT_BLOCKING_MS = 2000;

interface PendingWrite {
  write: () => void;
  changes: LaterChanges;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: writes queued during one turn of the event loop share one IMMEDIATE transaction. A
 * failing write rolls back alone and rejects only its caller: the batch is then redone with each write
 * in its own savepoint.
 * A commit costs far more than the rows it carries (WAL append, checkpoints), so under load this
 * multiplies write throughput; callers still resolve only once their rows are committed.
 *
 * The batch never waits on the event loop for another connection's write lock (the writer thread's
 * commits, the checkpointer restarting the WAL, a CLI): it asks for the lock without a busy timeout and,
 * refused, tries again a millisecond later while the loop serves requests. SQLite's busy handler would
 * have slept the whole event loop for 1, 2, 5, 10 ms in turn.
 */
export class GroupCommit implements OpsCommitter {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  /** When the batch now waiting first found the write lock taken; null while nothing waits. */
  private refusedSince: number | null = null;
  private readonly savepoint: (write: () => void) => void;
  private readonly busyTimeout: number;

  constructor(private readonly db: SqliteDb) {
    // Called inside the outer transaction, better-sqlite3 runs this as a SAVEPOINT.
    this.savepoint = db.transaction((write: () => void) => write());
    this.busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  }

  /**
   * Runs `write` (synchronous SQL) in the next group transaction; resolves after the commit.
   * `changes`: what it changes, for other processes' caches (commit-changes.ts); a function is asked
   * after `write` has run.
   */
  commit(write: () => void, changes: LaterChanges): Promise<void> {
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
    this.flush(true);
  }

  private flush(blocking = false): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    // Writes almost never fail, and a savepoint per write costs two statements: try the batch bare
    // first, and only when one write throws roll it all back and redo each in its own savepoint.
    const changes = () => mergeChanges(batch.map((item) => changesNow(item.changes)));
    const wait = blocking || (this.refusedSince !== null && Date.now() - this.refusedSince > RETRY_WITHOUT_BLOCKING_MS);
    if (!wait) this.setBusyTimeout(0);
    let failure: 'refused' | 'failed' | null = null;
    try {
      writeTransaction(
        this.db,
        () => {
          for (const item of batch) item.write();
        },
        changes,
      );
    } catch (err) {
      failure = !wait && refusedLock(err, this.db) ? 'refused' : 'failed';
    } finally {
      if (!wait) this.setBusyTimeout(this.busyTimeout);
    }
    if (failure === 'refused') {
      this.retryLater(batch);
      return;
    }
    this.refusedSince = null;
    if (failure === 'failed') this.flushIsolated(batch, changes);
    else for (const item of batch) item.resolve();
  }

  /** Puts a refused batch back in front of what came since, and tries again in a millisecond. */
  private retryLater(batch: PendingWrite[]): void {
    this.refusedSince ??= Date.now();
    this.queue = batch.concat(this.queue);
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => this.flush(), 1);
  }

  /**
   * Prepared anew each time (about 2.5 µs): SQLite sets the busy timeout while it prepares the pragma,
   * so a prepared one run again does nothing.
   */
  private setBusyTimeout(ms: number): void {
    this.db.pragma(`busy_timeout = ${ms}`);
  }

  private flushIsolated(batch: PendingWrite[], changes: () => CommitChanges): void {
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

/** The transaction could not begin because another connection holds the write lock; nothing ran. */
function refusedLock(err: unknown, db: SqliteDb): boolean {
  return (err as { code?: string } | null)?.code === 'SQLITE_BUSY' && !db.inTransaction;
}
