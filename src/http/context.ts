import type { Config } from '../config.js';
import type { Clock } from '../domain/clock.js';
import type { Store } from '../domain/ports/store.js';
import type { KeyResolver } from '../domain/projects/key-resolver.js';
import type { ResolvedKey } from '../domain/projects/project.js';
import type { UsageMeter } from '../domain/projects/usage-meter.js';
import type { Tenant } from '../domain/tenant.js';
import type { LivePack } from '../geodata/live-pack.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Services } from '../services.js';

/** Which key an endpoint needs. Secret keys may call publishable endpoints. */
export type AuthLevel = 'none' | 'publishable' | 'secret';

/** Everything routes may use, built by compose.ts. */
export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  keys: KeyResolver;
  rateLimiter: RateLimiter;
  usage: UsageMeter;
  services: Services;
  /** The reference-data pack (possibly none yet), reloaded when an import replaces a layer. */
  geodata: LivePack;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    auth: ResolvedKey | null;
  }
}

/** The tenant of an authenticated request. */
export function tenantOf(auth: ResolvedKey | null): Tenant {
  if (!auth) throw new Error('tenantOf called on a route without auth');
  return { projectId: auth.project.id, live: auth.live };
}
