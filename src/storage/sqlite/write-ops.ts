import type { SqliteDb } from './open-database.js';
import { statement } from './paged-query.js';

/**
 * One statement of a write, as data rather than a closure, so that a track can gather the writes of
 * its user, trip, events and deliveries and commit them in one transaction. `params` are positional
 * or named.
 */
export interface WriteOp {
  sql: string;
  params: readonly unknown[] | Record<string, unknown>;
}

/** Runs ops on `db` in order; call inside a write transaction. */
export function runOps(db: SqliteDb, ops: readonly WriteOp[]): void {
  for (const op of ops) {
    if (Array.isArray(op.params)) statement(db, op.sql).run(...op.params);
    else statement(db, op.sql).run(op.params);
  }
}
