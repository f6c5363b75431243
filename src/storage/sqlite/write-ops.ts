import type { CommitChanges } from './commit-changes.js';
import type { SqliteDb } from './open-database.js';
import { statement } from './paged-query.js';

/**
 * One statement of a write, as data rather than a closure, so that it can run on this thread's
 * connection or be posted to the writer thread (`WriterThread`). `params` are positional or named.
 */
export interface WriteOp {
  sql: string;
  params: readonly unknown[] | Record<string, unknown>;
}

/**
 * Commits groups of ops, each group atomically; resolves once its group is durable in the WAL.
 * `changes` is what the group changes, for other processes' caches (commit-changes.ts).
 */
export interface OpsCommitter {
  commitOps(ops: readonly WriteOp[], changes: CommitChanges): Promise<void>;
}

/** Runs ops on `db` in order; call inside a write transaction. */
export function runOps(db: SqliteDb, ops: readonly WriteOp[]): void {
  for (const op of ops) {
    if (Array.isArray(op.params)) statement(db, op.sql).run(...op.params);
    else statement(db, op.sql).run(op.params);
  }
}
