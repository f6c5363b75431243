import type { Position } from '../../geo/types.js';
import type { Clock } from '../clock.js';
import { type Geofence, isGeofenceEnabled, isGeofenceLive } from '../geofences/geofence.js';
import type { GeofenceIndex } from '../geofences/geofence-index.js';
import type { Place } from '../places/place.js';
import type { PlaceService } from '../places/place-service.js';
import type { RegionSet } from '../regions/region.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { Tenant } from '../tenant.js';
import type { GeofenceIndexRegistry } from '../tracking/geofence-index-registry.js';

/** What is at a point. */
export interface LocationContext {
  /** Fences containing the point, sorted by `_id` (creation order). */
  geofences: Geofence[];
  /** The place at the point when the project has Places on and an imported region has one there. */
  place?: Place;
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
    private readonly places?: { places: PlaceService; settings: SettingsService },
  ) {}

  /**
   * The context at `[lon, lat]`. A fence counts when it contains the point (boundary included) and
   * would generate events now (enabled, not past disableAfter or deleteAfter). userId restrictions
   * limit events, not lookups, so restricted fences are listed too. Regions need no feature switch:
   * context is stateless and anonymous.
   */
  at(tenant: Tenant, location: Position, opts: { places?: boolean } = {}): LocationContext | Promise<LocationContext> {
    // No promise while the tenant's index is loaded and Places is off: most calls answer at once.
    const index = this.indexes.get(tenant);
    if (index instanceof Promise) return index.then((i) => this.#at(i, tenant, location, opts));
    return this.#at(index, tenant, location, opts);
  }

  #at(
    index: GeofenceIndex,
    tenant: Tenant,
    location: Position,
    opts: { places?: boolean },
  ): LocationContext | Promise<LocationContext> {
    const now = this.clock.now();
    const [lon, lat] = location;
    const geofences: Geofence[] = [];
    for (const pg of index.containing(lon, lat)) {
      const g = pg.geofence;
      if (isGeofenceLive(g, now) && isGeofenceEnabled(g, now)) geofences.push(g);
    }
    if (geofences.length > 1) geofences.sort(byId);
    const out: LocationContext = { geofences, regions: this.regions?.at(location) ?? {} };
    // Like track's user.place, with the fix taken as exact (context has no accuracy).
    if (opts.places && this.places?.places.available()) return this.#withPlace(tenant, location, out);
    return out;
  }

  async #withPlace(tenant: Tenant, location: Position, out: LocationContext): Promise<LocationContext> {
    const places = this.places!;
    const settings = await places.settings.get(tenant);
    const best = places.places.candidatesAt(location, 0, settings)[0];
    if (best) out.place = best.place;
    return out;
  }
}

function byId(a: Geofence, b: Geofence): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
