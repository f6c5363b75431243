import type { Position } from '../../geo/types.js';
import type { Router } from '../../routing/router.js';
import { invalidParam, notFound } from '../errors.js';
import { type Geofence, isGeofenceLive } from '../geofences/geofence.js';
import type { GeofenceStore } from '../ports/geofence-store.js';
import type { Tenant } from '../tenant.js';
import { hasDestination, type Trip } from './trip.js';

/** A fast lookup of a trip's destination on each update; the store is asked when it answers null. */
export type FenceByTag = (tenant: Tenant, tag: string, externalId: string) => Promise<Geofence | null>;

/** Finds a trip's destination geofence and its ETA from a point. */
export class TripNavigator {
  private readonly fenceByTag: FenceByTag;

  constructor(
    private readonly geofences: GeofenceStore,
    private readonly router: Router,
    fenceByTag?: FenceByTag,
  ) {
    this.fenceByTag = fenceByTag ?? (async () => null);
  }

  /**
   * The trip with `destinationLocation` (the destination geofence's `geometryCenter`, looked up
   * again each time so a moved fence is followed; kept as it was when the fence is gone) and `eta`
   * from `from` (`[lon, lat]`; none when the position is unknown). ETA distance is in meters and
   * duration in minutes.
   */
  async withEta(tenant: Tenant, trip: Trip, from: Position | null, now: number): Promise<Trip> {
    if (!hasDestination(trip)) return { ...trip, destinationLocation: null, eta: null };
    const { destinationGeofenceTag: tag, destinationGeofenceExternalId: externalId } = trip;
    // A fence the fast lookup does not know (yet: another process wrote it) is asked of the store.
    const fence =
      (await this.fenceByTag(tenant, tag, externalId)) ?? (await this.geofences.getByTag(tenant, tag, externalId));
    const destination = fence && isGeofenceLive(fence, now) ? fence.geometryCenter : trip.destinationLocation;
    if (!destination) return { ...trip, eta: null };
    if (!from) return { ...trip, destinationLocation: destination };
    const route = await this.router.route(from, destination, trip.mode);
    const eta = { distance: Math.round(route.distanceMeters), duration: Math.round(route.durationSeconds / 0.6) / 100 };
    return { ...trip, destinationLocation: destination, eta };
  }

  /**
   * Checks a destination given through the API: tag and externalId go together and must name a
   * geofence. (Track's `tripOptions` are not checked: a location update never fails over them.)
   */
  async requireDestination(tenant: Tenant, tag: string | null, externalId: string | null, now: number): Promise<void> {
    if (tag === null && externalId === null) return;
    if (externalId === null)
      throw invalidParam('destinationGeofenceExternalId', 'is required with destinationGeofenceTag.');
    if (tag === null) throw invalidParam('destinationGeofenceTag', 'is required with destinationGeofenceExternalId.');
    const fence = await this.geofences.getByTag(tenant, tag, externalId);
    if (!fence || !isGeofenceLive(fence, now)) {
      throw notFound('geofence', 'destinationGeofenceExternalId');
    }
  }
}
