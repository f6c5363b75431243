import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the suite uses when TEST_STORE=postgres (test/run-postgres.ts sets it up). */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Environment for one test server. Under TEST_STORE=postgres every server gets its own schema (so
 * files running in parallel never see each other's rows) and the Redis rate limiter, i.e. the
 * scale-out configuration; otherwise the embedded default (SQLite under the server's DATA_DIR).
 */
export async function engineEnv(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  if (process.env.TEST_STORE !== 'postgres') return { env: {}, cleanup: async () => {} };
  const base = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
  // The creation time in the name lets a later run drop schemas an interrupted run left behind.
  const schema = `t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  const env: Record<string, string> = { DATABASE_URL: url.toString() };
  if (process.env.TEST_REDIS_URL) env.REDIS_URL = process.env.TEST_REDIS_URL;
  return {
    env,
    cleanup: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}
