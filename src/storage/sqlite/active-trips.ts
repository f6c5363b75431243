import { type Tenant, tenantKey } from '../../domain/tenant.js';
import { isTripActive, type Trip } from '../../domain/trips/trip.js';
import type { TripOwner } from '../../domain/trips/trip-lifecycle.js';

/**
 * A tenant with more active trips than this is not kept: its lookups read the table, as before this
 * cache. At about 1 KB a trip that bounds one tenant's share of memory to some 100 MB.
 */
export const MAX_KEPT_TRIPS = 100_000;

/** How long a tenant found with too many active trips is left to the table before it is counted again. */
const TOO_MANY_RECHECK_MS = 60_000;

/**
 * The active trips of the tenants this process has asked about, whole, so that a track (which asks
 * for its user's active trip, then reads it again under the trip's lock) reads no row. The profile
 * of tracks with an active trip had a sixth of the event loop in those two queries and their parse.
 *
 * It holds the table as committed: the store applies its own trip writes once they have committed,
 * other processes' writes when their commit-log lines arrive, and drops what it cannot follow. The
 * same precedence as the table's query: the user's own trip, else one waiting for its userId, else
 * one waiting for its deviceId; the newest created first.
 */
export class ActiveTrips {
  private readonly tenants = new Map<string, TenantTrips | { tooManyUntil: number }>();

  constructor(
    /** The tenant's active trips, at most `limit` of them (more means: too many to keep). */
    private readonly load: (tenant: Tenant, limit: number) => Trip[],
    private readonly maxKept = MAX_KEPT_TRIPS,
  ) {}

  /** The tenant's trips, loading them on first use; null when the tenant has too many to keep. */
  of(tenant: Tenant): TenantTrips | null {
    const key = tenantKey(tenant);
    const kept = this.tenants.get(key);
    if (kept instanceof TenantTrips) return kept;
    if (kept && Date.now() < kept.tooManyUntil) return null;
    const trips = this.load(tenant, this.maxKept + 1);
    if (trips.length > this.maxKept) {
      this.leaveToTable(key);
      return null;
    }
    const loaded = new TenantTrips();
    for (const trip of trips) loaded.put(trip);
    this.tenants.set(key, loaded);
    return loaded;
  }

  /** Whether the tenant's trips are kept (a change to one of them must then be read back). */
  keeps(tenant: Tenant): boolean {
    return this.tenants.get(tenantKey(tenant)) instanceof TenantTrips;
  }

  /** A trip as now committed: kept when active, let go otherwise (only for tenants already kept). */
  committed(trip: Trip): void {
    const kept = this.tenants.get(tenantKey(trip));
    if (!(kept instanceof TenantTrips)) return;
    kept.remove(trip.id);
    if (isTripActive(trip)) kept.put(trip);
    if (kept.size > this.maxKept) this.leaveToTable(tenantKey(trip));
  }

  /** A trip that no longer exists, or whose row could not be read back. */
  removed(tenant: Tenant, id: string): void {
    const kept = this.tenants.get(tenantKey(tenant));
    if (kept instanceof TenantTrips) kept.remove(id);
  }

  /** The tenant's trips last updated at or before `cutoff` were expired in the table. */
  expired(tenant: Tenant, cutoff: number): void {
    const kept = this.tenants.get(tenantKey(tenant));
    if (kept instanceof TenantTrips) kept.removeUpdatedBy(cutoff);
  }

  /** The tenant has too many active trips to keep: the table answers for it for a while. */
  private leaveToTable(key: string): void {
    this.tenants.set(key, { tooManyUntil: Date.now() + TOO_MANY_RECHECK_MS });
  }

  /** Forgets one tenant, or every tenant: they are read again when next asked for. */
  drop(tenant?: Tenant): void {
    if (tenant) this.tenants.delete(tenantKey(tenant));
    else this.tenants.clear();
  }
}

/** One tenant's active trips, by id and by each way `activeFor` finds its owner's. */
export class TenantTrips {
  private readonly byId = new Map<string, Trip>();
  private readonly byUserPk = new Map<string, Set<string>>();
  /** Trips waiting for their user's first track, by the userId they name. */
  private readonly waitingByUserId = new Map<string, Set<string>>();
  /** Waiting trips naming neither user nor userId, by deviceId. */
  private readonly waitingByDeviceId = new Map<string, Set<string>>();

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Trip | undefined {
    return this.byId.get(id);
  }

  find(owner: TripOwner): Trip | null {
    return (
      this.newest(owner.userPk === null ? undefined : this.byUserPk.get(owner.userPk)) ??
      this.newest(owner.userId === null ? undefined : this.waitingByUserId.get(owner.userId)) ??
      this.newest(owner.deviceId === null ? undefined : this.waitingByDeviceId.get(owner.deviceId))
    );
  }

  put(trip: Trip): void {
    this.byId.set(trip.id, trip);
    const index = this.indexOf(trip);
    if (!index) return;
    const ids = index.map.get(index.key);
    if (ids) ids.add(trip.id);
    else index.map.set(index.key, new Set([trip.id]));
  }

  remove(id: string): void {
    const trip = this.byId.get(id);
    if (!trip) return;
    this.byId.delete(id);
    const index = this.indexOf(trip);
    const ids = index?.map.get(index.key);
    ids?.delete(id);
    if (ids?.size === 0) index!.map.delete(index!.key);
  }

  removeUpdatedBy(cutoff: number): void {
    for (const trip of [...this.byId.values()]) if (trip.updatedAt <= cutoff) this.remove(trip.id);
  }

  private indexOf(trip: Trip): { map: Map<string, Set<string>>; key: string } | null {
    if (trip.userPk !== null) return { map: this.byUserPk, key: trip.userPk };
    if (trip.userId !== null) return { map: this.waitingByUserId, key: trip.userId };
    if (trip.deviceId !== null) return { map: this.waitingByDeviceId, key: trip.deviceId };
    return null;
  }

  private newest(ids: Set<string> | undefined): Trip | null {
    if (!ids) return null;
    let best: Trip | null = null;
    for (const id of ids) {
      const trip = this.byId.get(id)!;
      if (!best || trip.createdAt > best.createdAt || (trip.createdAt === best.createdAt && trip.id > best.id))
        best = trip;
    }
    return best;
  }
}
