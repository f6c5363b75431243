import type { Position } from '../../geo/types.js';
import type { Clock } from '../clock.js';
import { type Geofence, isGeofenceEnabled, isGeofenceLive } from '../geofences/geofence.js';
import type { GeofenceIndex } from '../geofences/geofence-index.js';
import type { PreparedGeofence } from '../geofences/prepared-geofence.js';
import type { Metadata } from '../metadata.js';
import type { Tenant } from '../tenant.js';
import type { GeofenceIndexRegistry } from '../tracking/geofence-index-registry.js';
import { matchesMetadata } from './matches-metadata.js';

export interface GeofenceSearchQuery {
  /** `[lon, lat]`. */
  near: Position;
  radiusMeters: number;
  /** Keep fences whose tag is one of these. */
  tags?: string[] | undefined;
  metadata?: Metadata | undefined;
  limit: number;
  /**
   * When given, only fences this app user may enter: unrestricted ones and those restricted to it
   * (null: a user without a userId, so unrestricted ones only). Geofence sync for the mobile SDKs.
   */
  appUserId?: string | null | undefined;
}

export interface GeofenceHit {
  geofence: Geofence;
  /** Meters from `near` to the fence: 0 inside, else to its boundary. */
  distanceMeters: number;
}

/** Geofences near a point, from the tenant's spatial index. */
export class GeofenceSearch {
  constructor(
    private readonly indexes: GeofenceIndexRegistry,
    private readonly clock: Clock,
  ) {}

  /**
   * Fences within `radiusMeters` of `near` (distance to the nearest point of the fence, 0 inside),
   * nearest first. Only fences that generate events now are returned (enabled, not past disableAfter
   * or deleteAfter): clients sync these to monitor them on the device.
   */
  near(tenant: Tenant, q: GeofenceSearchQuery): GeofenceHit[] | Promise<GeofenceHit[]> {
    // No promise while the tenant's index is loaded: most searches answer at once.
    const index = this.indexes.get(tenant);
    return index instanceof Promise ? index.then((i) => this.#near(i, q)) : this.#near(index, q);
  }

  #near(index: GeofenceIndex, q: GeofenceSearchQuery): GeofenceHit[] {
    const now = this.clock.now();
    const tags = q.tags && q.tags.length > 0 ? new Set(q.tags) : null;
    const anyUser = q.appUserId === undefined;
    const appUserId = q.appUserId ?? null;
    // A method, not a named arrow: tsx's keepNames would wrap a named closure with a defineProperty per call.
    const opts = {
      limit: q.limit,
      filter({ geofence: g }: PreparedGeofence): boolean {
        return (
          isGeofenceLive(g, now) &&
          isGeofenceEnabled(g, now) &&
          (anyUser || g.userId === null || g.userId === appUserId) &&
          (tags === null || (g.tag !== null && tags.has(g.tag))) &&
          matchesMetadata(g.metadata, q.metadata)
        );
      },
    };
    return index
      .near(q.near[0], q.near[1], q.radiusMeters, opts)
      .map((hit) => ({ geofence: hit.geofence.geofence, distanceMeters: hit.distanceMeters }));
  }
}
