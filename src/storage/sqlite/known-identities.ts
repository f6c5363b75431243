import { fnv1a } from '../../cache/fnv1a.js';
import { Uint32Set } from '../../cache/uint32-set.js';
import { type Tenant, tenantKey } from '../../domain/tenant.js';
import type { IdentityColumn } from './recent-users.js';

/** Up to `limit` distinct values of `column` among a tenant's users, in order, after `after` (all: null). */
export type IdentityPageReader = (
  tenant: Tenant,
  column: IdentityColumn,
  after: string | null,
  limit: number,
) => string[];

// Identities read per turn of the event loop: a page of 5,000 took 1.6 ms (at most 2.9) to read off
// the index of 200,000 users, and hashing it into a fresh set about 0.7 ms.
const PAGE = 5_000;

interface TenantIdentities {
  hashes: Uint32Set;
  /** Whether every stored identity has been read in; until then every lookup goes to the database. */
  complete: boolean;
}

/**
 * The hashes of every identity (userId, deviceId) a tenant's stored users have, so that the track of
 * a device no stored user has (a new device: the common track of a growing fleet) skips the read that
 * would find no one. That read costs a walk of the identity index whose pages the writer thread's
 * last commit took out of this connection's cache (17 µs of the event loop a track on the
 * 100,000-fence row, 2026-11-27 profile). Hashes in a typed array, not strings or documents: 4-8 bytes
 * an identity and nothing for the collector to trace (keeping each new device's user document for
 * this, e5faa09, cost 80 µs a track and was reverted). A hash collision only sends a lookup to the
 * database.
 *
 * A tenant's identities are read in pages between requests on its first lookup. Every user this
 * process writes (`add` after the commit) and every user another process is seen to write (`add` from
 * the change poll, which runs before each lookup) adds its identities, whether the reading is done or
 * not, so an identity missing from a complete set has no user. A change not said (another process's
 * bulk write, a pruned commit log) drops every set (`clear`): they are read anew. Another process's
 * write reaches the set when the look for news delivers it, which is before every lookup of a request
 * that arrived after that write's commit (SqliteStore.syncExternalChanges).
 */
export class KnownIdentities {
  readonly #tenants = new Map<string, TenantIdentities>();

  constructor(
    private readonly readPage: IdentityPageReader,
    private readonly pageSize = PAGE,
  ) {}

  /** Whether the tenant's stored identities have all been read in (lookups of others then skip the database). */
  complete(tenant: Tenant): boolean {
    return this.#tenants.get(tenantKey(tenant))?.complete ?? false;
  }

  /** False only when no stored user of the tenant has this identity. */
  mayHave(tenant: Tenant, column: IdentityColumn, value: string): boolean {
    const key = tenantKey(tenant);
    const known = this.#tenants.get(key) ?? this.#startReading(tenant, key);
    return !known.complete || known.hashes.has(hashOf(column, value));
  }

  /** A user with this identity was stored (by this process or, as the change poll saw, another). */
  add(tenant: Tenant, column: IdentityColumn, value: string): void {
    this.#tenants.get(tenantKey(tenant))?.hashes.add(hashOf(column, value));
  }

  clear(): void {
    this.#tenants.clear();
  }

  #startReading(tenant: Tenant, key: string): TenantIdentities {
    const known: TenantIdentities = { hashes: new Uint32Set(), complete: false };
    this.#tenants.set(key, known);
    const step = (column: IdentityColumn, after: string | null) => {
      // Dropped meanwhile (`clear`): a newer reading, if any, is that set's own.
      if (this.#tenants.get(key) !== known) return;
      let values: string[];
      try {
        values = this.readPage(tenant, column, after, this.pageSize);
      } catch {
        // The store closed, or the read failed: lookups keep going to the database until a new reading.
        this.#tenants.delete(key);
        return;
      }
      for (const value of values) known.hashes.add(hashOf(column, value));
      if (values.length === this.pageSize) setImmediate(step, column, values[values.length - 1]!);
      else if (column === 'device_id') setImmediate(step, 'user_id', null);
      else known.complete = true;
    };
    setImmediate(step, 'device_id', null);
    return known;
  }
}

function hashOf(column: IdentityColumn, value: string): number {
  // 0 marks an empty slot of the set; `| 1` keeps every hash clear of it (and costs one bit).
  return ((fnv1a(value) ^ (column === 'user_id' ? 0x5bd1e995 : 0)) | 1) >>> 0;
}
