import type { Position } from '../../geo/types.js';
import type { Clock } from '../clock.js';
import { type Geofence, isGeofenceEnabled, isGeofenceLive } from '../geofences/geofence.js';
import { containsPoint } from '../geofences/prepared-geofence.js';
import type { RegionSet } from '../regions/region.js';
import type { Tenant } from '../tenant.js';
import type { GeofenceIndexRegistry } from '../tracking/geofence-index-registry.js';

/** What is at a point. The place joins when its issue lands. */
export interface LocationContext {
  /** Fences containing the point, sorted by `_id` (creation order). */
  geofences: Geofence[];
  /** country, state, dma, postalCode where the reference data has them; empty without a pack. */
  regions: RegionSet;
}

/** The regions at `[lon, lat]`; null when the server has no reference data. */
export interface RegionLookup {
  at(location: Position): RegionSet | null;
}

/** Stateless, anonymous context for coordinates: no user is read or written. */
export class ContextService {
  constructor(
    private readonly indexes: GeofenceIndexRegistry,
    private readonly clock: Clock,
    private readonly regions?: RegionLookup,
  ) {}

  /**
   * The context at `[lon, lat]`. A fence counts when it contains the point (boundary included) and
   * would generate events now (enabled, not past disableAfter or deleteAfter). userId restrictions
   * limit events, not lookups, so restricted fences are listed too. Regions need no feature switch:
   * context is stateless and anonymous.
   */
  async at(tenant: Tenant, location: Position): Promise<LocationContext> {
    const index = await this.indexes.get(tenant);
    const now = this.clock.now();
    const [lon, lat] = location;
    const geofences = index
      .candidatesAt(lon, lat, 0)
      .filter(
        (pg) => isGeofenceLive(pg.geofence, now) && isGeofenceEnabled(pg.geofence, now) && containsPoint(pg, lon, lat),
      )
      .map((pg) => pg.geofence)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { geofences, regions: this.regions?.at(location) ?? {} };
  }
}
