import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { DEFAULT_TEST_DATABASE_URL } from './helpers/engine.js';

/**
 * Runs the HTTP suite again over PostgreSQL + PostGIS and Redis (the scale-out configuration).
 * When TEST_DATABASE_URL is not set and no local PostgreSQL answers, it says how to get one and
 * skips; when it is set (as .ci/run does), an unreachable database fails the run.
 */
const explicit = process.env.TEST_DATABASE_URL !== undefined;
const url = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;

async function main(): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS postgis');
  } catch (err) {
    const why = `PostgreSQL with PostGIS is not usable at ${url}: ${(err as Error).message}`;
    if (explicit) {
      process.stderr.write(`${why}\n`);
      return 1;
    }
    process.stdout.write(`SKIPPED the PostgreSQL run of the suite. ${why}. Run \`bash .ci/run\` (installs and starts PostgreSQL, PostGIS and Redis) or set TEST_DATABASE_URL.\n`);
    return 0;
  } finally {
    await client.end().catch(() => {});
  }
  const env = { ...process.env, TEST_STORE: 'postgres', TEST_DATABASE_URL: url, TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', 'test/**/*.test.ts'], { env, stdio: 'inherit' });
  return run.status ?? 1;
}

main().then((code) => {
  process.exitCode = code;
});
