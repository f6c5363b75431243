import { buildApp } from './app.js';
import { type Config, ConfigError } from './config.js';
import { type Clock, systemClock } from './domain/clock.js';
import { KeyResolver } from './domain/projects/key-resolver.js';
import { UsageMeter } from './domain/projects/usage-meter.js';
import type { AppDeps } from './http/context.js';
import { MemoryRateLimiter } from './ratelimit/memory-rate-limiter.js';
import { createServices, followExternalChanges } from './services.js';
import { PostgresStore } from './storage/postgres/postgres-store.js';
import { SqliteStore } from './storage/sqlite/sqlite-store.js';
import { RedisRateLimiter } from './ratelimit/redis-rate-limiter.js';
import type { RateLimiter } from './ratelimit/rate-limiter.js';
import type { Store } from './storage/store.js';

/** Opens the store the configuration names. */
export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) {
    try {
      return await PostgresStore.open(config.databaseUrl);
    } catch (err) {
      throw new ConfigError(`DATABASE_URL: cannot open the PostgreSQL store (${(err as Error).message}).`);
    }
  }
  return SqliteStore.open(config.dataDir);
}

/** Redis-backed limits when REDIS_URL is set (shared by every API process), else in-memory. */
export async function openRateLimiter(config: Config): Promise<RateLimiter> {
  if (!config.redisUrl) return new MemoryRateLimiter();
  const limiter = new RedisRateLimiter(config.redisUrl);
  try {
    await limiter.ping();
  } catch (err) {
    await limiter.close();
    throw new ConfigError(`REDIS_URL: cannot reach Redis (${(err as Error).message}).`);
  }
  return limiter;
}

/** Wires configuration into a ready app and its dependencies; `close` releases everything. */
export async function compose(config: Config, opts: { clock?: Clock } = {}) {
  const store = await openStore(config);
  const clock = opts.clock ?? systemClock;
  const keys = new KeyResolver(store.projects);
  const deps: AppDeps = {
    config,
    store,
    clock,
    keys,
    rateLimiter: await openRateLimiter(config),
    usage: new UsageMeter(store.usage),
    services: createServices(store, clock),
  };
  const unsubscribe = store.onExternalChange(() => keys.invalidate());
  const unfollow = followExternalChanges(store, deps.services);
  const app = await buildApp(deps);
  const close = async () => {
    unsubscribe();
    unfollow();
    await app.close();
    await deps.usage.close();
    await deps.rateLimiter.close();
    await store.close();
  };
  return { app, deps, close };
}
