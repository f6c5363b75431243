import { buildApp } from './app.js';
import { type Config, ConfigError } from './config.js';
import { type Clock, systemClock } from './domain/clock.js';
import { KeyResolver } from './domain/projects/key-resolver.js';
import { UsageMeter } from './domain/projects/usage-meter.js';
import type { AppDeps } from './http/context.js';
import { MemoryRateLimiter } from './ratelimit/memory-rate-limiter.js';
import { createServices } from './services.js';
import { SqliteStore } from './storage/sqlite/sqlite-store.js';
import type { Store } from './storage/store.js';

/** Opens the store the configuration names. */
export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) {
    throw new ConfigError('DATABASE_URL is set, but the PostgreSQL store is not available in this version yet: unset it to use SQLite.');
  }
  return SqliteStore.open(config.dataDir);
}

/** Wires configuration into a ready app and its dependencies; `close` releases everything. */
export async function compose(config: Config, opts: { clock?: Clock } = {}) {
  if (config.redisUrl) {
    throw new ConfigError('REDIS_URL is set, but the Redis rate limiter is not available in this version yet: unset it.');
  }
  const store = await openStore(config);
  const clock = opts.clock ?? systemClock;
  const keys = new KeyResolver(store.projects);
  const deps: AppDeps = {
    config,
    store,
    clock,
    keys,
    rateLimiter: new MemoryRateLimiter(),
    usage: new UsageMeter(store.usage),
    services: createServices(store, clock),
  };
  const unsubscribe = store.onExternalChange(() => keys.invalidate());
  const app = await buildApp(deps);
  const close = async () => {
    unsubscribe();
    await app.close();
    await deps.usage.close();
    await deps.rateLimiter.close();
    await store.close();
  };
  return { app, deps, close };
}
