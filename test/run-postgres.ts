import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { DEFAULT_TEST_DATABASE_URL } from './helpers/engine.js';

/**
 * Runs the HTTP suite again over PostgreSQL + PostGIS and Redis (the scale-out configuration):
 * `npx tsx test/run-postgres.ts [test files]` (every test/*.test.ts when none are named).
 * When TEST_DATABASE_URL is not set and no local PostgreSQL answers, it says how to get one and
 * skips; when it is set (as .ci/run does), an unreachable database fails the run.
 */
const explicit = process.env.TEST_DATABASE_URL !== undefined;
const url = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;

async function main(): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS postgis SCHEMA public');
    // Schemas that test servers of an interrupted run left behind (t_<epoch seconds>_<hex>), once
    // they are an hour old, so a run in progress elsewhere keeps its own.
    const { rows } = await client.query<{ nspname: string }>(
      "SELECT nspname FROM pg_namespace WHERE nspname ~ '^t_[0-9]+_[0-9a-f]+$'",
    );
    const cutoff = Date.now() / 1000 - 3600;
    for (const r of rows)
      if (Number(r.nspname.split('_')[1]) < cutoff) await client.query(`DROP SCHEMA ${r.nspname} CASCADE`);
  } catch (err) {
    const why = `PostgreSQL with PostGIS is not usable at ${url}: ${(err as Error).message}`;
    if (explicit) {
      process.stderr.write(`${why}\n`);
      return 1;
    }
    process.stdout.write(
      `SKIPPED the PostgreSQL run of the suite. ${why}. Run \`bash .ci/run\` (installs and starts PostgreSQL, PostGIS and Redis) or set TEST_DATABASE_URL.\n`,
    );
    return 0;
  } finally {
    await client.end().catch(() => {});
  }
  const env = {
    ...process.env,
    TEST_STORE: 'postgres',
    TEST_DATABASE_URL: url,
    TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
  // Node 20's test runner does not expand globs: name the files (those given, else every test/*.test.ts).
  const named = process.argv.slice(2);
  const files = named.length
    ? named
    : fs
        .readdirSync('test')
        .filter((f) => f.endsWith('.test.ts'))
        .sort()
        .map((f) => `test/${f}`)
        .filter((f) => !storeIndependent(f));
  // As `npm run test:sqlite`: a file whose tests have ended exits even if it leaked a handle, and a test
  // that hangs is cancelled after 5 minutes, so one fault fails the run instead of stalling it for good.
  const runner = ['--test-concurrency=2', '--test-force-exit', '--test-timeout=300000'];
  const args = ['--import', 'tsx', '--test', '--test-reporter=spec', ...runner, ...files];
  const run = spawnSync(process.execPath, args, { env, stdio: 'inherit' });
  return run.status ?? 1;
}

/**
 * A test file that starts with the line `// store-independent: <why>` exercises nothing the store
 * answers (the map tiles, the dashboard's static pages, a pure-geometry check): the SQLite pass covers it,
 * and running it again here would only spend the test budget. Named on the command line, it still runs.
 */
function storeIndependent(file: string): boolean {
  const head = fs.readFileSync(file, 'utf8').slice(0, 200);
  return head.startsWith('// store-independent:');
}

main().then((code) => {
  process.exitCode = code;
});
