import { setBounded } from '../../cache/bounded-map.js';
import { type Tenant, tenantKey } from '../../domain/tenant.js';
import type { User } from '../../domain/users/user.js';

/** Identity keys of a tenant, as `findTrackCandidates` looks users up: by userId or by deviceId. */
export type IdentityColumn = 'user_id' | 'device_id';

interface Entry {
  id: string;
  doc: string;
}

const MAX_KEYS = 50_000;

/**
 * The newest stored user per identity (userId, deviceId) for identities read recently, as the text of
 * its row, so that a device's next track finds its user without a read of the database: a read after
 * the writer thread's commits finds the connection's page cache dropped, and costs several times a
 * cached one.
 *
 * An entry is filled by a database read that found the user, or by the first user written with an
 * identity that a read found no one with (`absent`): that user is then its only holder. Without the
 * second, a device's first track left nothing behind and its next one read the database again (the
 * bench's known-device row, 20,000 devices that had tracked once: 4,227 of 4,269 lookups in 2 s read
 * it, about 70 µs each on the event loop; now none does, at about 10 µs a lookup).
 * A written user refreshes the entries that already name it (its `updatedAt` only grows, so it stays
 * the newest), and drops those that name another user (it may now be newer) or that it no longer
 * matches (a moved deviceId). Deleting users and writes outside tracks drop everything (`clear`);
 * another process's write of a user drops that user and its identities (`forget`, `forgetKey`).
 */
export class RecentUsers {
  readonly #entries = new Map<string, Entry>();
  /**
   * The keys each cached user is under, to drop those a write makes wrong. Every entry naming a user
   * has its key here: a user evicted from this map takes its entries with it.
   */
  readonly #keysOf = new Map<string, string[]>();
  /**
   * Identities a read found no user with, since the last `clear`. Never an answer (`get` reads the
   * database for them): only the evidence that the next user written with one is its only holder.
   */
  readonly #absent = new Map<string, true>();

  constructor(private readonly maxKeys = MAX_KEYS) {}

  get(tenant: Tenant, column: IdentityColumn, value: string): string | undefined {
    return this.#entries.get(keyOf(tenant, column, value))?.doc;
  }

  /** A database read found `doc` (user `id`) as the newest with this identity. */
  found(tenant: Tenant, column: IdentityColumn, value: string, id: string, doc: string): void {
    this.#remember(keyOf(tenant, column, value), id, doc);
  }

  /** A database read found no user with this identity. */
  absent(tenant: Tenant, column: IdentityColumn, value: string): void {
    const key = keyOf(tenant, column, value);
    this.#entries.delete(key);
    setBounded(this.#absent, key, true, this.maxKeys);
  }

  /** `user` was committed with row text `doc`. */
  written(user: User, doc: string): void {
    const tenant = { projectId: user.projectId, live: user.live };
    const own: string[] = [];
    if (user.deviceId !== null) own.push(keyOf(tenant, 'device_id', user.deviceId));
    if (user.userId !== null) own.push(keyOf(tenant, 'user_id', user.userId));
    for (const key of own) {
      const e = this.#entries.get(key);
      if (e === undefined) {
        if (this.#absent.delete(key)) this.#remember(key, user.id, doc);
      } else if (e.id === user.id) e.doc = doc;
      else this.#entries.delete(key);
    }
    const keys = this.#keysOf.get(user.id);
    if (!keys) return;
    const kept = keys.filter((key) => this.#entries.get(key)?.id === user.id);
    for (const key of kept) if (!own.includes(key)) this.#entries.delete(key);
    this.#keysOf.set(
      user.id,
      kept.filter((key) => own.includes(key)),
    );
  }

  clear(): void {
    this.#entries.clear();
    this.#keysOf.clear();
    this.#absent.clear();
  }

  /** Drops what is kept of user `id` (another process wrote it). */
  forget(id: string): void {
    this.#forget(id);
  }

  /** Drops the entry of one identity (another process wrote a user that has it). */
  forgetKey(tenant: Tenant, column: IdentityColumn, value: string): void {
    const key = keyOf(tenant, column, value);
    this.#entries.delete(key);
    this.#absent.delete(key);
  }

  #remember(key: string, id: string, doc: string): void {
    this.#absent.delete(key);
    setBounded(this.#entries, key, { id, doc }, this.maxKeys);
    const keys = this.#keysOf.get(id);
    if (!keys) this.#keysOf.set(id, [key]);
    else if (!keys.includes(key)) keys.push(key);
    if (this.#keysOf.size > this.maxKeys) this.#forget(this.#keysOf.keys().next().value as string);
  }

  #forget(id: string): void {
    for (const key of this.#keysOf.get(id) ?? []) if (this.#entries.get(key)?.id === id) this.#entries.delete(key);
    this.#keysOf.delete(id);
  }
}

function keyOf(tenant: Tenant, column: IdentityColumn, value: string): string {
  return `${tenantKey(tenant)}:${column === 'user_id' ? 'u' : 'd'}:${value}`;
}
