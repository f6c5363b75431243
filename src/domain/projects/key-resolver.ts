import { hashKey } from './keys.js';
import type { ResolvedKey } from './project.js';

export interface KeyLookup {
  resolveKey(keyHash: string): Promise<ResolvedKey | null>;
}

/**
 * Resolves raw API keys to their project, caching hits. Misses are never cached, so a key created by
 * the CLI works at once; `invalidate` drops hits when a project changed (disabled, limits raised).
 */
export class KeyResolver {
  private readonly cache = new Map<string, ResolvedKey>();

  constructor(private readonly lookup: KeyLookup) {}

  /** The cached resolution of a key, without a lookup: lets the hot path stay synchronous. */
  cached(rawKey: string): ResolvedKey | undefined {
    return this.cache.get(rawKey);
  }

  async resolve(rawKey: string): Promise<ResolvedKey | null> {
    const hit = this.cache.get(rawKey);
    if (hit) return hit;
    const resolved = await this.lookup.resolveKey(hashKey(rawKey));
    if (resolved) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(rawKey, resolved);
    }
    return resolved;
  }

  invalidate(): void {
    this.cache.clear();
  }
}
