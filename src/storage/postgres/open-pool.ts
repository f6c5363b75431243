import pg from 'pg';
import { PG_MIGRATIONS } from './migrations.js';

const INT8 = 20;
const NUMERIC = 1700;

/** int8 and numeric as JS numbers: our bigints are epoch milliseconds and counters, far below 2^53. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Sized above the track transaction slots so reads made during a track always find a connection. */
export function createPool(connectionString: string, max = 24): pg.Pool {
  // A database that does not answer fails requests (and /readyz) after 5 s instead of hanging them.
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5000,
    types: types as pg.CustomTypesConfig,
  });
  // An idle client's error (database restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return pool;
}

/**
 * Applies pending migrations under an advisory lock, so several API processes starting at once
 * migrate exactly once.
 */
export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727001)');
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, name text, applied_at bigint)',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    for (const m of PG_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          Date.now(),
        ]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(727001)').catch(() => {});
    client.release();
  }
}

/** Runs `fn` in a transaction on one client. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
