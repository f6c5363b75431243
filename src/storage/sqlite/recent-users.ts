import { grown } from '../../cache/grown.js';
import { KeySlots } from '../../cache/key-slots.js';
import { SlotQueue } from '../../cache/slot-queue.js';
import { TextRing } from '../../cache/text-ring.js';
import { type Tenant, tenantKey } from '../../domain/tenant.js';
import type { User } from '../../domain/users/user.js';

/** Identity keys of a tenant, as `findTrackCandidates` looks users up: by userId or by deviceId. */
export type IdentityColumn = 'user_id' | 'device_id';

const MAX_KEYS = 50_000;
// The row texts' ring: 64 MB for 50,000 keys, room for a 1,280-byte text each (a device's user is
// ~700), so the key bound, not the ring, decides what is kept as a rule.
const RING_BYTES_PER_KEY = 1280;
const NONE = -1;

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
 * write of a user drops that user and its identities (`forget`, `forgetKey`). When full, the identity
 * kept longest goes first.
 *
 * Nothing of it is on the JavaScript heap but a few arrays: identities and user ids are `KeySlots`
 * slots, the texts are in a `TextRing`, and the rest is per-slot `Int32Array`s. With the identities
 * and ids as strings in `Map`s, ~900 bytes of a new device's track outlived a scavenge (its strings,
 * and the tables the maps rebuilt as they churned), two fifths of all that did (2026-11-30 profile).
 */
export class RecentUsers {
  readonly #max: number;
  readonly #texts: TextRing;
  #keys = new KeySlots();
  #users = new KeySlots();
  /** Identity slots, oldest first: what goes when the cache is full. */
  readonly #order: SlotQueue;
  // Per identity slot: its row text's handle in #texts, its user's slot, and the next identity of
  // that user (a user's identities are a list through this array, from #firstKey; NONE ends it).
  #handle: Int32Array;
  #userOf: Int32Array;
  #nextKey: Int32Array;
  /** Per user slot: its first identity slot. Every identity naming a user is on its list. */
  #firstKey: Int32Array;

  constructor(maxKeys = MAX_KEYS) {
    this.#max = maxKeys;
    // A handle per entry, and one for the text being put before an entry takes it.
    this.#texts = new TextRing(maxKeys * RING_BYTES_PER_KEY, maxKeys + 1);
    this.#order = new SlotQueue(maxKeys + 1);
    // Slots are given out again once let go, so at most one past the bound is ever used.
    const slots = Math.min(maxKeys + 1, 1 << 16);
    this.#handle = new Int32Array(slots);
    this.#userOf = new Int32Array(slots);
    this.#nextKey = new Int32Array(slots);
    this.#firstKey = new Int32Array(slots).fill(NONE);
  }

  get(tenant: Tenant, column: IdentityColumn, value: string): string | undefined {
    const slot = this.#keys.get(keyOf(tenant, column, value));
    if (slot < 0) return undefined;
    const doc = this.#texts.get(this.#handle[slot]!);
    // Written over in the ring by newer texts: gone, as if evicted.
    if (doc === undefined) this.#delete(slot);
    return doc;
  }

  /** A database read found `doc` (user `id`) as the newest with this identity. */
  found(tenant: Tenant, column: IdentityColumn, value: string, id: string, doc: string): void {
    const handle = this.#texts.put(doc);
    this.#found(keyOf(tenant, column, value), id, handle);
    this.#let(handle);
  }

  /** `found`, with the row text already in the ring (`handle`, which an entry retains; -1: not kept). */
  #found(key: string, id: string, handle: number): void {
    let slot = this.#keys.get(key);
    if (slot < 0) {
      if (handle < 0) return;
      while (this.#keys.size >= this.#max) {
        const oldest = this.#order.shift();
        if (oldest < 0) break;
        this.#delete(oldest, false);
      }
      slot = this.#newKey(key);
    }
    if (!this.#setDoc(slot, handle)) {
      this.#delete(slot);
      return;
    }
    const user = this.#users.take(id);
    if (user >= this.#firstKey.length) this.#firstKey = grown(this.#firstKey, user + 1, NONE);
    if (this.#userOf[slot] === user) return;
    this.#unlink(slot);
    this.#userOf[slot] = user;
    this.#nextKey[slot] = this.#firstKey[user]!;
    this.#firstKey[user] = slot;
  }

  /**
   * `user` was created with row text `doc` because a read under the identities' lock found no user
   * with its userId nor its deviceId: it is the newest with them, as a read would find it.
   */
  created(user: User, doc: string): void {
    const tenant = { projectId: user.projectId, live: user.live };
    // One copy in the ring for both identities.
    const handle = this.#texts.put(doc);
    if (user.deviceId !== null) this.#found(keyOf(tenant, 'device_id', user.deviceId), user.id, handle);
    if (user.userId !== null) this.#found(keyOf(tenant, 'user_id', user.userId), user.id, handle);
    this.#let(handle);
  }

  /** `user` was committed with row text `doc`. */
  written(user: User, doc: string): void {
    const tenant = { projectId: user.projectId, live: user.live };
    const bySlot = this.#users.get(user.id);
    const byDevice = user.deviceId === null ? NONE : this.#keys.get(keyOf(tenant, 'device_id', user.deviceId));
    const byUserId = user.userId === null ? NONE : this.#keys.get(keyOf(tenant, 'user_id', user.userId));
    // Put in the ring once, and only if an entry of this user takes it.
    const handle = this.#refresh(byDevice, bySlot, doc, undefined);
    this.#let(this.#refresh(byUserId, bySlot, doc, handle) ?? -1);
    if (bySlot < 0) return;
    // Identities the user no longer has (a moved deviceId, a changed userId).
    for (let slot = this.#firstKey[bySlot]!; slot !== NONE; ) {
      const next = this.#nextKey[slot]!;
      if (slot !== byDevice && slot !== byUserId) this.#delete(slot);
      slot = next;
    }
  }

  /**
   * Identity `slot`'s entry (if any) takes the text `doc` when it names user slot `user`, and goes
   * when it names another. The text is put in the ring once, only if an entry takes it: `handle` is
   * what an earlier call put; returns the handle put, to be let go once by the caller.
   */
  #refresh(slot: number, user: number, doc: string, handle: number | undefined): number | undefined {
    if (slot < 0) return handle;
    if (user < 0 || this.#userOf[slot] !== user) {
      this.#delete(slot);
      return handle;
    }
    const put = handle ?? this.#texts.put(doc);
    if (!this.#setDoc(slot, put)) this.#delete(slot);
    return put;
  }

  clear(): void {
    this.#keys = new KeySlots();
    this.#users = new KeySlots();
    this.#order.clear();
    this.#texts.clear();
    this.#firstKey.fill(NONE);
  }

  /** Drops what is kept of user `id` (another process wrote it). */
  forget(id: string): void {
    const user = this.#users.get(id);
    if (user < 0) return;
    // The last identity's delete lets the user's slot go.
    for (let slot = this.#firstKey[user]!; slot !== NONE; ) {
      const next = this.#nextKey[slot]!;
      this.#delete(slot);
      slot = next;
    }
  }

  /** Drops the entry of one identity (another process wrote a user that has it). */
  forgetKey(tenant: Tenant, column: IdentityColumn, value: string): void {
    const slot = this.#keys.get(keyOf(tenant, column, value));
    if (slot >= 0) this.#delete(slot);
  }

  #newKey(key: string): number {
    const slot = this.#keys.add(key);
    if (slot >= this.#handle.length) {
      this.#handle = grown(this.#handle, slot + 1);
      this.#userOf = grown(this.#userOf, slot + 1);
      this.#nextKey = grown(this.#nextKey, slot + 1);
    }
    this.#handle[slot] = NONE;
    this.#userOf[slot] = NONE;
    this.#nextKey[slot] = NONE;
    this.#order.push(slot);
    return slot;
  }

  /** Lets go of identity `slot`: its text, its place on its user's list (and the user with its last). */
  #delete(slot: number, queued = true): void {
    const handle = this.#handle[slot]!;
    if (handle >= 0) this.#texts.release(handle);
    this.#unlink(slot);
    if (queued) this.#order.drop(slot);
    this.#keys.delete(slot);
  }

  /** Takes identity `slot` off its user's list; a user left with none is let go. */
  #unlink(slot: number): void {
    const user = this.#userOf[slot]!;
    if (user === NONE) return;
    this.#userOf[slot] = NONE;
    if (this.#firstKey[user] === slot) this.#firstKey[user] = this.#nextKey[slot]!;
    else {
      let before = this.#firstKey[user]!;
      while (this.#nextKey[before] !== slot) before = this.#nextKey[before]!;
      this.#nextKey[before] = this.#nextKey[slot]!;
    }
    if (this.#firstKey[user] === NONE) this.#users.delete(user);
  }

  /** Lets go of the reference `put` gave (the entries that took the text hold their own). */
  #let(handle: number): void {
    if (handle >= 0) this.#texts.release(handle);
  }

  /** Keeps the text of `handle` as identity `slot`'s; false when there is none (-1). */
  #setDoc(slot: number, handle: number): boolean {
    const old = this.#handle[slot]!;
    // Retained first: `old` may be this very handle.
    if (handle >= 0) this.#texts.retain(handle);
    if (old >= 0) this.#texts.release(old);
    this.#handle[slot] = handle;
    return handle >= 0;
  }
}

function keyOf(tenant: Tenant, column: IdentityColumn, value: string): string {
  return `${tenantKey(tenant)}:${column === 'user_id' ? 'u' : 'd'}:${value}`;
}
