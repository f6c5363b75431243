import { distanceMeters } from '../../geo/distance-meters.js';
import type { Position } from '../../geo/types.js';
import type { Router } from '../../routing/router.js';
import type { Clock } from '../clock.js';
import { type Geofence, isGeofenceLive, type TravelMode } from '../geofences/geofence.js';
import type { Metadata } from '../metadata.js';
import type { UserStore } from '../ports/user-store.js';
import type { Tenant } from '../tenant.js';
import type { GeofenceIndexRegistry } from '../tracking/geofence-index-registry.js';
import type { User } from '../users/user.js';
import { matchesMetadata } from './matches-metadata.js';
import type { UserLocationRegistry } from './user-location-registry.js';

export interface UserSearchQuery {
  /** `[lon, lat]`. */
  near: Position;
  /** Great-circle meters (travel-time searches: the reach bound of `maxTravelMeters`). */
  radiusMeters: number;
  metadata?: Metadata | undefined;
  limit: number;
  /** Travel-time search: keep users whose route to `near` takes at most `minutes` (within `radiusMeters`). */
  travel?: { mode: TravelMode; minutes: number } | undefined;
}

export interface UserHit {
  user: User;
  distanceMeters: number;
  /** The fences the user is in, as they are now. */
  geofences: Geofence[];
}

/**
 * Users near a point: candidates from the in-memory location index, confirmed against the stored users
 * (as `UserLocationRegistry.users` keeps them).
 */
export class UserSearch {
  constructor(
    private readonly users: Pick<UserStore, 'near'>,
    private readonly locations: UserLocationRegistry,
    private readonly indexes: GeofenceIndexRegistry,
    private readonly clock: Clock,
    /** Travel times for `travel` searches. */
    private readonly router?: Router,
  ) {}

  /**
   * Users whose last location is within `radiusMeters` of `near` (boundary included), nearest first,
   * at most `limit`. The store has the last word: users deleted since they were indexed are dropped
   * (and leave the index), and distance and metadata are checked on the stored record.
   */
  async near(tenant: Tenant, q: UserSearchQuery): Promise<UserHit[]> {
    if (this.users.near) return this.nearInStore(tenant, q, this.users.near.bind(this.users));
    const index = await this.locations.get(tenant);
    const hits: Array<{ user: User; distanceMeters: number; order: number }> = [];
    const checked = new Set<string>();
    let removed = 0;
    // Batches of the nearest `limit` candidates not checked yet (users found deleted leave the index).
    for (let want = q.limit; hits.length < q.limit; want = checked.size - removed + q.limit) {
      // Inline, not a named arrow: tsx's keepNames would wrap a named closure with a defineProperty per call.
      const candidates = index.nearest(q.near, q.radiusMeters, want, (m) => matchesMetadata(m, q.metadata));
      const batch = candidates.filter((c) => !checked.has(c.id));
      if (batch.length === 0) break;
      for (const c of batch) checked.add(c.id);
      const found = new Map(
        (
          await this.locations.users(
            tenant,
            batch.map((c) => c.id),
          )
        ).map((u) => [u.id, u]),
      );
      for (const c of batch) {
        const user = found.get(c.id);
        if (!user?.location) {
          index.remove(c.id);
          removed++;
          continue;
        }
        const hit = q.travel ? await this.hit(user, user.location, q) : this.nearHit(user, user.location, q);
        if (hit) hits.push(hit);
      }
      if (candidates.length < want) break;
    }
    return this.answer(tenant, q, hits);
  }

  /**
   * The same search over a store that several processes share: the store's spatial index sees every
   * process's tracks at once (this process's in-memory index moves only with its own). Pages of the
   * nearest users, a little past the radius so the exact check below decides the boundary.
   */
  private async nearInStore(
    tenant: Tenant,
    q: UserSearchQuery,
    near: NonNullable<UserStore['near']>,
  ): Promise<UserHit[]> {
    const hits: Array<{ user: User; distanceMeters: number; order: number }> = [];
    const page = Math.max(q.limit, 10);
    for (let offset = 0; hits.length < q.limit; offset += page) {
      const users = await near(tenant, q.near, q.radiusMeters + 10, page, offset);
      for (const user of users) {
        if (!user.location) continue;
        const hit = q.travel ? await this.hit(user, user.location, q) : this.nearHit(user, user.location, q);
        if (hit) hits.push(hit);
      }
      if (users.length < page) break;
    }
    return this.answer(tenant, q, hits);
  }

  /**
   * The user as a hit when it is within the radius (or the travel time) and matches the metadata; travel-time
   * searches order by the time to reach `near`, the quickest first, others by distance.
   */
  private async hit(
    user: User,
    location: Position,
    q: UserSearchQuery,
  ): Promise<{ user: User; distanceMeters: number; order: number } | null> {
    const hit = this.nearHit(user, location, q);
    if (hit === null || !q.travel || !this.router) return hit;
    const route = await this.router.route(location, q.near, q.travel.mode);
    if (route.durationSeconds > q.travel.minutes * 60) return null;
    return { user, distanceMeters: hit.distanceMeters, order: route.durationSeconds };
  }

  /** `hit` without travel time: no promise per user of a plain search. */
  private nearHit(
    user: User,
    location: Position,
    q: UserSearchQuery,
  ): { user: User; distanceMeters: number; order: number } | null {
    const d = distanceMeters(q.near, location);
    if (d > q.radiusMeters || !matchesMetadata(user.metadata, q.metadata)) return null;
    return { user, distanceMeters: d, order: d };
  }

  private async answer(
    tenant: Tenant,
    q: UserSearchQuery,
    hits: Array<{ user: User; distanceMeters: number; order: number }>,
  ): Promise<UserHit[]> {
    hits.sort((a, b) => a.order - b.order || (a.user.id < b.user.id ? -1 : 1));
    const fences = await this.indexes.get(tenant);
    const now = this.clock.now();
    const out: UserHit[] = [];
    // Plain loops and literals: an object rest/spread per hit cost more than the rest of this method.
    for (let i = 0; i < hits.length && i < q.limit; i++) {
      const { user, distanceMeters } = hits[i]!;
      const geofences: Geofence[] = [];
      for (const m of user.geofences) {
        const g = fences.get(m.geofenceId)?.geofence;
        if (g !== undefined && isGeofenceLive(g, now)) geofences.push(g);
      }
      out.push({ user, distanceMeters, geofences });
    }
    return out;
  }
}
