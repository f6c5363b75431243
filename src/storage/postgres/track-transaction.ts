import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * The connection of the track transaction the current async call runs inside, if any. A track's
 * participants (trips) take their locks on it instead of on a connection of their own: a track
 * already holds one connection, and holding a second while waiting could use up the pool.
 */
export const trackTransactionClient = new AsyncLocalStorage<pg.PoolClient>();

/** Blocks until this transaction holds the advisory lock named `key`; COMMIT or ROLLBACK frees it. */
export async function lockForTransaction(c: pg.PoolClient, key: string): Promise<void> {
  await c.query({ name: 'xact-lock', text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', values: [key] });
}
