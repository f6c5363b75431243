import type { StoreChange, UserLocation } from '../../storage/store.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';
import { UserLocationIndex } from './user-location-index.js';

interface Entry {
  index: UserLocationIndex | null;
  loading: Promise<UserLocationIndex> | null;
  /** Users tracked while loading, applied after the load (the newest location wins). */
  pending: User[];
}

/**
 * One `UserLocationIndex` per tenant, loaded from the store on the first search and moved by every
 * track of this process (`update`). Another process's writes drop the tenant's index (`storeChanged`);
 * the next search reloads it. Deleted users stay in the index until a search finds them missing.
 */
export class UserLocationRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly source: { locations(tenant: Tenant): Promise<UserLocation[]> }) {}

  get(tenant: Tenant): UserLocationIndex | Promise<UserLocationIndex> {
    const key = keyOf(tenant);
    const existing = this.entries.get(key);
    if (existing) return existing.index ?? existing.loading!;
    const entry: Entry = { index: null, loading: null, pending: [] };
    this.entries.set(key, entry);
    const load = this.source.locations(tenant).then((rows) => {
      const index = new UserLocationIndex();
      index.load(rows);
      for (const u of entry.pending) if (u.location) index.upsert(u.id, u.location, u.metadata);
      return index;
    });
    entry.loading = load;
    load.then(
      (index) => {
        entry.index = index;
        entry.loading = null;
        entry.pending = [];
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return load;
  }

  /** A track of this process committed: move the user, if the tenant's index is loaded or loading. */
  update(tenant: Tenant, user: User): void {
    const entry = this.entries.get(keyOf(tenant));
    if (!entry || !user.location) return;
    if (entry.index) entry.index.upsert(user.id, user.location, user.metadata);
    else entry.pending.push(user);
  }

  storeChanged(change: StoreChange): void {
    if (change.kind !== 'unknown' && change.kind !== 'users') return;
    if (change.tenant) this.entries.delete(keyOf(change.tenant));
    else this.entries.clear();
  }
}

function keyOf(t: Tenant): string {
  return `${t.projectId}:${t.live ? 1 : 0}`;
}
