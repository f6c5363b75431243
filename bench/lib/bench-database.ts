import pg from 'pg';
import { hashKey } from '../../src/domain/projects/keys.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { PostgresStore } from '../../src/storage/postgres/postgres-store.js';

/**
 * `npm run bench [scenario ...] [--store sqlite|postgres] [--processes N]`. With `--store postgres`
 * every scenario gets a fresh schema `bench` in a dedicated database (BENCH_DATABASE_URL, default
 * `whereabouts_bench` on the local PostgreSQL, created with PostGIS when missing; never the test
 * schemas) and the Redis rate limiter (BENCH_REDIS_URL, default local); N API processes share them
 * (each its own port here, so that the load is split evenly and each one's CPU time is read). SQLite
 * serves from one API process: `--processes` above 1 needs `--store postgres`.
 * BENCH_PG_OPTIONS: extra session settings for the servers' connections (`-c name=value ...`).
 */
export interface BenchOptions {
  scenarios: string[];
  store: 'sqlite' | 'postgres';
  processes: number;
}

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const out: BenchOptions = { scenarios: [], store: 'sqlite', processes: 1 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--store') {
      const v = argv[++i];
      if (v !== 'sqlite' && v !== 'postgres') throw new Error('--store must be sqlite or postgres');
      out.store = v;
    } else if (a === '--processes') {
      out.processes = Number(argv[++i]);
      if (!Number.isInteger(out.processes) || out.processes < 1)
        throw new Error('--processes must be a whole number >= 1');
    } else out.scenarios.push(a);
  }
  if (out.store === 'sqlite' && out.processes > 1)
    throw new Error('--processes above 1 needs --store postgres: SQLite serves from one API process');
  return out;
}

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/whereabouts_bench';
const SCHEMA = 'bench';
let current: string | undefined;

/** The DATABASE_URL of the running PostgreSQL bench, if any (seeders write there instead of SQLite). */
export function benchDatabaseUrl(): string | undefined {
  return current;
}

/** The bench's PostgreSQL runs on this machine (loopback or a socket), so its processes' CPU can be read. */
export function benchDatabaseIsLocal(): boolean {
  return ['', 'localhost', '127.0.0.1', '[::1]'].includes(benchDatabaseBase().hostname);
}

/** BENCH_DATABASE_URL, or the local default. */
function benchDatabaseBase(): URL {
  return new URL(process.env.BENCH_DATABASE_URL ?? DEFAULT_URL);
}

/** Drops and recreates the bench schema; returns the server environment that points at it. */
export async function freshBenchDatabase(): Promise<Record<string, string>> {
  const base = benchDatabaseBase();
  const dbName = base.pathname.slice(1);
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const server = new pg.Client({ connectionString: admin.toString() });
  await server.connect();
  try {
    const { rowCount } = await server.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (!rowCount) await server.query(`CREATE DATABASE ${pg.escapeIdentifier(dbName)}`);
  } finally {
    await server.end();
  }
  const db = new pg.Client({ connectionString: base.toString() });
  await db.connect();
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS postgis SCHEMA public');
    await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await db.query(`CREATE SCHEMA ${SCHEMA}`);
  } finally {
    await db.end();
  }
  // BENCH_PG_OPTIONS adds session settings, e.g. `-c synchronous_commit=off` (README: PostgreSQL settings).
  const extra = process.env.BENCH_PG_OPTIONS ? ` ${process.env.BENCH_PG_OPTIONS}` : '';
  base.searchParams.set('options', `-c search_path=${SCHEMA},public${extra}`);
  current = base.toString();
  return { DATABASE_URL: current, REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379' };
}

/** Runs `fn` with the bench's PostgreSQL store open. */
export async function withBenchStore<T>(fn: (store: PostgresStore) => Promise<T>): Promise<T> {
  if (!current) throw new Error('no PostgreSQL bench database is prepared');
  const store = await PostgresStore.open(current);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The tenant a key belongs to, read from the PostgreSQL bench database. */
export function pgTenantOfKey(key: string): Promise<Tenant> {
  return withBenchStore(async (store) => {
    const resolved = await store.projects.resolveKey(hashKey(key));
    if (!resolved) throw new Error('bench key does not resolve');
    return { projectId: resolved.project.id, live: resolved.live };
  });
}
