import { existsSync } from 'node:fs';
import { buildApp } from './app.js';
import { type Config, ConfigError } from './config.js';
import { type Clock, systemClock } from './domain/clock.js';
import type { Store } from './domain/ports/store.js';
import { KeyResolver } from './domain/projects/key-resolver.js';
import { UsageMeter } from './domain/projects/usage-meter.js';
import { DEFAULT_DELIVERY_POLICY } from './domain/webhooks/delivery-service.js';
import { prepareGeocoding } from './geocoding/entry-scores.js';
import { LivePack } from './geodata/live-pack.js';
import type { AppDeps } from './http/context.js';
import { trackWire } from './http/track-wire.js';
import { MemoryRateLimiter } from './ratelimit/memory-rate-limiter.js';
import type { RateLimiter } from './ratelimit/rate-limiter.js';
import { RedisRateLimiter } from './ratelimit/redis-rate-limiter.js';
import { createServices, followExternalChanges } from './services.js';
import { PostgresStore } from './storage/postgres/postgres-store.js';
import { SqliteStore } from './storage/sqlite/sqlite-store.js';

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

/**
 * Opens the reference-data pack under GEODATA_DIR when it has been built. A server without one still
 * runs (geodata endpoints answer 503 saying how to build it); an unreadable pack is logged, not fatal;
 * a missing IP_DATABASE file is a configuration error.
 */
export async function openGeodata(config: Config): Promise<{ geodata: LivePack; problem: Error | null }> {
  if (config.ipDatabase && !existsSync(config.ipDatabase)) {
    throw new ConfigError(`IP_DATABASE: no file at ${config.ipDatabase}.`);
  }
  const geodata = new LivePack(config.geodataDir, {
    ...(config.ipDatabase ? { ipDatabasePath: config.ipDatabase } : {}),
    prepare: prepareGeocoding,
  });
  try {
    await geodata.load();
    return { geodata, problem: null };
  } catch (err) {
    return { geodata, problem: err as Error };
  }
}

/** Wires configuration into a ready app and its dependencies; `close` releases everything. */
export async function compose(config: Config, opts: { clock?: Clock } = {}) {
  // The limiter first: a store holds connections that would keep a failed start-up process alive.
  const rateLimiter = await openRateLimiter(config);
  const store = await openStore(config).catch(async (err: unknown) => {
    await rateLimiter.close();
    throw err;
  });
  const clock = opts.clock ?? systemClock;
  const keys = new KeyResolver(store.projects);
  const { geodata, problem } = await openGeodata(config).catch(async (err: unknown) => {
    await store.close();
    await rateLimiter.close();
    throw err;
  });
  const deps: AppDeps = {
    config,
    store,
    clock,
    keys,
    rateLimiter,
    usage: new UsageMeter(store.usage),
    services: createServices(store, clock, trackWire, geodata),
    geodata,
  };
  // Keys resolve to their project (its settings and features): only those changes make them stale.
  const unsubscribe = store.onExternalChange((change) => {
    if (change.kind === 'unknown' || change.kind === 'projects') keys.invalidate();
  });
  const unfollow = followExternalChanges(store, deps.services);
  const app = await buildApp(deps);
  if (problem) app.log.error({ err: problem }, 'geodata pack not loaded');
  // `import dma`, `import postal` and `import world` (the CLI, another process) are picked up live.
  geodata.watch({
    reloaded: (pack) => app.log.info({ builtAt: pack.manifest.world.builtAt }, 'geodata pack reloaded'),
    failed: (err) => app.log.error({ err }, 'geodata pack reload failed; still serving the previous one'),
  });
  const sweeper = setInterval(() => {
    deps.services.geofences.purgeExpired().catch((err: unknown) => app.log.error({ err }, 'geofence sweep failed'));
    deps.services.retention.sweep().then(
      (removed) => {
        if (removed.events + removed.trips + removed.users > 0) app.log.info({ removed }, 'retention sweep');
      },
      (err: unknown) => app.log.error({ err }, 'retention sweep failed'),
    );
  }, 60_000);
  sweeper.unref();
  // The webhook outbox, every second, and at once again while passes find a full batch due.
  let closing = false;
  const deliver = () => {
    deps.services.deliveries.start()?.then(
      (sent) => {
        if (sent >= DEFAULT_DELIVERY_POLICY.batch && !closing) setImmediate(deliver);
      },
      (err: unknown) => app.log.error({ err }, 'webhook deliveries failed'),
    );
  };
  const deliverer = config.sendWebhooks ? setInterval(deliver, 1000) : undefined;
  deliverer?.unref();
  const close = async () => {
    closing = true;
    clearInterval(deliverer);
    clearInterval(sweeper);
    // The HTTP server first: it stops accepting and waits for the requests in flight, which still need
    // the pack, the store and the limiter; their usage counts are then flushed with the rest.
    await app.close();
    await deps.services.deliveries.idle();
    await deps.services.brokers.close();
    geodata.close();
    unsubscribe();
    unfollow();
    await deps.usage.close();
    await deps.rateLimiter.close();
    await store.close();
  };
  return { app, deps, close };
}
