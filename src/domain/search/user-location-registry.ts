import { LRUCache } from 'lru-cache';
import type { StoreChange } from '../ports/store.js';
import type { UserLocation } from '../ports/user-store.js';
import { type Tenant, tenantKey } from '../tenant.js';
import type { User } from '../users/user.js';
import { UserLocationIndex } from './user-location-index.js';

interface Entry {
  index: UserLocationIndex | null;
  loading: Promise<UserLocationIndex> | null;
  /** Users tracked while loading, applied after the load (the newest location wins). */
  pending: User[];
  /** Stored users read by searches, by `_id`, kept until a write to them (see `users`). */
  docs: LRUCache<string, User>;
  /** Bumped by every write heard of: a store read begun before one is not kept. */
  writes: number;
}

/** Stored users kept per tenant: enough for the users a busy search area returns over and over. */
export const MAX_KEPT_USERS = 100_000;

/**
 * A tenant's kept stored users by `_id`, the least recently read dropped first past `MAX_KEPT_USERS`.
 * Bounded by `maxSize` at one per user rather than by `max`, with which lru-cache allocates room for
 * every entry up front: 2-3 MB in each tenant that searches, however few users it has.
 */
export function keptUsers(): LRUCache<string, User> {
  return new LRUCache({ maxSize: MAX_KEPT_USERS, sizeCalculation: () => 1 });
}

/**
 * One `UserLocationIndex` per tenant, loaded from the store on the first search and moved by every
 * track of this process (`update`). Another process's write of a user moves that user once read back;
 * a write that does not say which users drops the tenant's index (`storeChanged`), and the next
 * search reloads it. Deleted users stay in the index until a search finds them missing.
 *
 * Beside it, the stored users that searches confirm (`users`): reading and parsing ten documents cost
 * more than the rest of a search. A kept user is dropped by a track of it (`update`), by any deletion
 * in its tenant (`deleted`: the id deleted may be a userId or deviceId) and by other processes' writes
 * (`storeChanged`, delivered before every read through `syncExternalChanges`), so it is never older
 * than the store.
 */
export class UserLocationRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly source: {
      locations(tenant: Tenant): Promise<UserLocation[]>;
      getMany(tenant: Tenant, ids: string[]): Promise<User[]>;
    },
    /** The store's `syncExternalChanges`: other processes' writes reach `storeChanged` before a read. */
    private readonly syncExternalChanges: () => void = () => {},
  ) {}

  get(tenant: Tenant): UserLocationIndex | Promise<UserLocationIndex> {
    const key = tenantKey(tenant);
    const existing = this.entries.get(key);
    if (existing) return existing.index ?? existing.loading!;
    const entry: Entry = { index: null, loading: null, pending: [], docs: keptUsers(), writes: 0 };
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

  /**
   * The stored users with these `_id`s, in no particular order, missing ones left out: those kept
   * from earlier reads, the others read from the store (and kept, unless a write was heard meanwhile).
   */
  async users(tenant: Tenant, ids: readonly string[]): Promise<User[]> {
    this.syncExternalChanges();
    const key = tenantKey(tenant);
    const entry = this.entries.get(key);
    if (!entry) return this.source.getMany(tenant, [...ids]);
    const out: User[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const user = entry.docs.get(id);
      if (user === undefined) missing.push(id);
      else out.push(user);
    }
    if (missing.length === 0) return out;
    const writes = entry.writes;
    const found = await this.source.getMany(tenant, missing);
    const keep = entry.writes === writes && this.entries.get(key) === entry;
    for (const user of found) {
      if (keep) entry.docs.set(user.id, user);
      out.push(user);
    }
    return out;
  }

  /** A track of this process committed: move the user, if the tenant's index is loaded or loading. */
  update(tenant: Tenant, user: User): void {
    const entry = this.entries.get(tenantKey(tenant));
    if (!entry) return;
    entry.writes++;
    entry.docs.delete(user.id);
    if (!user.location) return;
    if (entry.index) entry.index.upsert(user.id, user.location, user.metadata);
    else entry.pending.push(user);
  }

  /** A user of the tenant was deleted through this process (by `_id`, userId or deviceId). */
  deleted(tenant: Tenant): void {
    const entry = this.entries.get(tenantKey(tenant));
    if (!entry) return;
    entry.writes++;
    entry.docs.clear();
  }

  storeChanged(change: StoreChange): void {
    if (change.kind !== 'unknown' && change.kind !== 'users') return;
    if (change.tenant) this.entries.delete(tenantKey(change.tenant));
    else this.entries.clear();
  }
}
