import { takeOldest } from '../../cache/bounded-map.js';
import { flat } from '../../cache/flat-string.js';
import { ShardedMap } from '../../cache/sharded-map.js';
import { TextRing } from '../../cache/text-ring.js';
import { type Tenant, tenantKey } from '../../domain/tenant.js';
import type { User } from '../../domain/users/user.js';

/** Identity keys of a tenant, as `findTrackCandidates` looks users up: by userId or by deviceId. */
export type IdentityColumn = 'user_id' | 'device_id';

const MAX_KEYS = 50_000;
// Shards of about this many keys at least (and at most 64 shards): each is bounded to its share of
// the keys and evicts its own oldest, so a full cache's rehash moves a shard, not all 50,000.
const KEYS_PER_SHARD = 1024;
const MAX_SHARDS = 64;
// The row texts' ring: 64 MB for 50,000 keys, room for a 1,280-byte text each (a device's user is
// ~700), so the key bound, not the ring, decides what is kept as a rule.
const RING_BYTES_PER_KEY = 1280;

/**
 * The newest stored user per identity (userId, deviceId) for identities read recently, as the text of
 * its row, so that a device's next track finds its user without a read of the database: a read after
 * the writer thread's commits finds the connection's page cache dropped, and costs several times a
 * cached one.
 *
 * A database read fills an entry, because it knows the user is the newest with that identity, and
 * so does the creation of a user whose identities the track's read found on no user (without it, a
 * device's first track after the one that created its user read the database). A written user
 * refreshes the entries that already name it (its `updatedAt` only grows, so it stays the newest),
 * and drops those that name another user (it may now be newer) or that it no longer matches (a moved
 * deviceId). Deleting users and writes outside tracks drop everything (`clear`); another process's
 * write of a user drops that user and its identities (`forget`, `forgetKey`).
 */
export class RecentUsers {
  // Per identity key, the kept row text (its handle in #texts) and the id of its user: two maps of a
  // number and a string, where an entry object per key was one more object for each major collection
  // to mark (50,000 users kept).
  readonly #docs: ShardedMap<number>;
  readonly #texts: TextRing;
  readonly #ids: ShardedMap<string>;
  /**
   * The keys each cached user is under, to drop those a write makes wrong: its one key (a device's
   * usual case) as the string itself, more as an array. Every entry naming a user has its key here:
   * a user evicted from this map takes its entries with it.
   */
  readonly #keysOf: ShardedMap<string | string[]>;
  /** Bound of each shard: the identities (of #docs) and users (of #keysOf) it may hold. */
  readonly #perShard: number;

  constructor(maxKeys = MAX_KEYS) {
    const shards = Math.min(MAX_SHARDS, Math.floor(maxKeys / KEYS_PER_SHARD));
    this.#docs = new ShardedMap(shards);
    this.#ids = new ShardedMap(shards);
    this.#keysOf = new ShardedMap(shards);
    this.#perShard = Math.ceil(maxKeys / this.#docs.shardCount);
    // A handle per entry, and one for the text being put before an entry takes it (and room is made).
    this.#texts = new TextRing(maxKeys * RING_BYTES_PER_KEY, this.#perShard * this.#docs.shardCount + 1);
  }

  get(tenant: Tenant, column: IdentityColumn, value: string): string | undefined {
    const key = keyOf(tenant, column, value);
    const handle = this.#docs.get(key);
    if (handle === undefined) return undefined;
    const doc = this.#texts.get(handle);
    // Written over in the ring by newer texts: gone, as if evicted.
    if (doc === undefined) this.#delete(key);
    return doc;
  }

  /** A database read found `doc` (user `id`) as the newest with this identity. */
  found(tenant: Tenant, column: IdentityColumn, value: string, id: string, doc: string): void {
    const handle = this.#texts.put(doc);
    this.#found(tenant, column, value, id, handle);
    this.#let(handle);
  }

  /** `found`, with the row text already in the ring (`handle`, which an entry retains; -1: not kept). */
  #found(tenant: Tenant, column: IdentityColumn, value: string, id: string, handle: number): void {
    // Flat: a key outlives many collections, and as the rope its template literal makes it was five
    // string objects to copy and mark instead of one (2026-11-29 heap snapshots).
    const key = flat(keyOf(tenant, column, value));
    const shard = this.#docs.indexOf(key);
    const docs = this.#docs.shard(shard);
    const ids = this.#ids.shard(shard);
    if (docs.size >= this.#perShard && !docs.has(key)) {
      const [oldest, handle] = takeOldest(docs)!;
      this.#texts.release(handle);
      ids.delete(oldest);
    }
    if (!this.#setDoc(docs, key, handle)) {
      ids.delete(key);
      return;
    }
    ids.set(key, id);
    const users = this.#keysOf.shardOf(id);
    const keys = users.get(id);
    if (keys === undefined) users.set(id, key);
    else if (typeof keys === 'string') {
      if (keys !== key) users.set(id, [keys, key]);
    } else if (!keys.includes(key)) keys.push(key);
    if (users.size > this.#perShard) {
      // Through the map's cursor: a fresh `keys()` walks every slot deleted since the last rehash.
      const [oldest, itsKeys] = takeOldest(users)!;
      this.#dropEntries(oldest, itsKeys);
    }
  }

  /**
   * `user` was created with row text `doc` because a read under the identities' lock found no user
   * with its userId nor its deviceId: it is the newest with them, as a read would find it.
   */
  created(user: User, doc: string): void {
    const tenant = { projectId: user.projectId, live: user.live };
    // One copy in the ring for both identities.
    const handle = this.#texts.put(doc);
    if (user.deviceId !== null) this.#found(tenant, 'device_id', user.deviceId, user.id, handle);
    if (user.userId !== null) this.#found(tenant, 'user_id', user.userId, user.id, handle);
    this.#let(handle);
  }

  /** `user` was committed with row text `doc`. */
  written(user: User, doc: string): void {
    const tenant = { projectId: user.projectId, live: user.live };
    const own: string[] = [];
    if (user.deviceId !== null) own.push(keyOf(tenant, 'device_id', user.deviceId));
    if (user.userId !== null) own.push(keyOf(tenant, 'user_id', user.userId));
    // Put in the ring once, and only if an entry of this user takes it.
    let handle: number | undefined;
    for (const key of own) {
      // #ids and #docs share their shards: the key is hashed once.
      const shard = this.#ids.indexOf(key);
      const id = this.#ids.shard(shard).get(key);
      if (id === undefined) continue;
      if (id === user.id) handle ??= this.#texts.put(doc);
      if (id !== user.id || !this.#setDoc(this.#docs.shard(shard), key, handle!)) this.#delete(key);
    }
    if (handle !== undefined) this.#let(handle);
    const keys = this.#keysOf.get(user.id);
    // A device's user written again under its one key (nearly every track): nothing to drop.
    if (keys === undefined || (typeof keys === 'string' && own.includes(keys) && this.#ids.get(keys) === user.id))
      return;
    const kept = (typeof keys === 'string' ? [keys] : keys).filter((key) => this.#ids.get(key) === user.id);
    for (const key of kept) if (!own.includes(key)) this.#delete(key);
    const still = kept.filter((key) => own.includes(key));
    this.#keysOf.set(user.id, still.length === 1 ? still[0]! : still);
  }

  clear(): void {
    this.#docs.clear();
    this.#texts.clear();
    this.#ids.clear();
    this.#keysOf.clear();
  }

  /** Drops what is kept of user `id` (another process wrote it). */
  forget(id: string): void {
    this.#forget(id);
  }

  /** Drops the entry of one identity (another process wrote a user that has it). */
  forgetKey(tenant: Tenant, column: IdentityColumn, value: string): void {
    this.#delete(keyOf(tenant, column, value));
  }

  #forget(id: string): void {
    this.#dropEntries(id, this.#keysOf.get(id) ?? []);
    this.#keysOf.delete(id);
  }

  /** Deletes those of `keys` whose entry still names user `id`. */
  #dropEntries(id: string, keys: string | readonly string[]): void {
    if (typeof keys === 'string') {
      if (this.#ids.get(keys) === id) this.#delete(keys);
    } else for (const key of keys) if (this.#ids.get(key) === id) this.#delete(key);
  }

  #delete(key: string): void {
    const shard = this.#docs.indexOf(key);
    const docs = this.#docs.shard(shard);
    const handle = docs.get(key);
    if (handle !== undefined) {
      this.#texts.release(handle);
      docs.delete(key);
    }
    this.#ids.shard(shard).delete(key);
  }

  /** Lets go of the reference `put` gave (the entries that took the text hold their own). */
  #let(handle: number): void {
    if (handle >= 0) this.#texts.release(handle);
  }

  /** Keeps the text of `handle` as `key`'s in its shard `docs`; false (and no entry) when there is none (-1). */
  #setDoc(docs: Map<string, number>, key: string, handle: number): boolean {
    const old = docs.get(key);
    // Retained first: `old` may be this very handle.
    if (handle >= 0) this.#texts.retain(handle);
    if (old !== undefined) this.#texts.release(old);
    if (handle < 0) {
      docs.delete(key);
      return false;
    }
    docs.set(key, handle);
    return true;
  }
}

function keyOf(tenant: Tenant, column: IdentityColumn, value: string): string {
  return `${tenantKey(tenant)}:${column === 'user_id' ? 'u' : 'd'}:${value}`;
}
