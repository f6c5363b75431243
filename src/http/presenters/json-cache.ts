import { LRUCache } from 'lru-cache';
import type { StoreChange } from '../../domain/ports/store.js';
import type { Tenant } from '../../domain/tenant.js';

interface Entry {
  body: Buffer;
  /** Epoch ms after which the text may be wrong (a `disableAfter` flips `enabled`). */
  validUntil: number;
}

/**
 * Response bodies by tenant and id, for reads that repeat far more often than writes (GET of a
 * geofence). Writing the JSON of a fence with a 65-vertex outline costs more than the rest of the request
 * together (printing doubles is slow), so each document is serialised once per change, and kept as the
 * bytes sent (no copy nor UTF-8 encoding per response). Entries are
 * dropped on every write this process makes and on every change another process reports; the least
 * recently read go first when the cache is full.
 */
export class JsonCache {
  readonly #entries: LRUCache<string, Entry>;

  constructor(maxEntries = 50_000) {
    this.#entries = new LRUCache({ max: maxEntries });
  }

  get(tenant: Tenant, id: string, now: number): Buffer | undefined {
    const key = keyOf(tenant, id);
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (now < e.validUntil) return e.body;
    this.#entries.delete(key);
    return undefined;
  }

  put(tenant: Tenant, id: string, body: Buffer, validUntil = Number.POSITIVE_INFINITY): void {
    this.#entries.set(keyOf(tenant, id), { body, validUntil });
  }

  forget(tenant: Tenant, id: string): void {
    this.#entries.delete(keyOf(tenant, id));
  }

  /** Another process wrote: forget what it names, or everything when it does not say. */
  storeChanged(change: StoreChange, kind: StoreChange['kind']): void {
    if (change.kind !== kind && change.kind !== 'unknown') return;
    if (change.tenant && change.id !== undefined) this.forget(change.tenant, change.id);
    else this.#entries.clear();
  }
}

function keyOf(t: Tenant, id: string): string {
  return `${t.projectId}:${t.live ? 1 : 0}:${id}`;
}
