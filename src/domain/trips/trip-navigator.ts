import type { Position } from '../../geo/types.js';
import type { Router } from '../../routing/router.js';
import { invalidParam, notFound } from '../errors.js';
import { type Geofence, isGeofenceLive } from '../geofences/geofence.js';
import type { GeofenceStore } from '../ports/geofence-store.js';
import type { Tenant } from '../tenant.js';
import { hasDestination, hasLegs, type Trip } from './trip.js';
import type { TripLeg, TripLegInput } from './trip-leg.js';
import { currentLeg, mirrorCurrentLeg } from './trip-legs.js';

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
    if (hasLegs(trip)) return this.withLegEta(tenant, trip, from, now);
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
   * A multi-destination trip with its current leg's destination point (a geofence's looked up as in
   * `withEta`) and ETA, mirrored on the trip. Other legs keep what they had.
   */
  private async withLegEta(
    tenant: Tenant,
    trip: Trip & { legs: TripLeg[] },
    from: Position | null,
    now: number,
  ): Promise<Trip> {
    const leg = currentLeg(trip);
    if (!leg) return trip;
    const fence = await this.legFence(tenant, leg);
    const d = leg.destination;
    const live = fence && isGeofenceLive(fence, now) ? fence : null;
    const location = live ? live.geometryCenter : d.location;
    let eta = leg.eta;
    if (location && from) {
      const route = await this.router.route(from, location, trip.mode);
      eta = { distance: Math.round(route.distanceMeters), duration: Math.round(route.durationSeconds / 0.6) / 100 };
    } else if (!location) eta = null;
    const next: TripLeg = {
      ...leg,
      destination: {
        ...d,
        location,
        // A leg named by `_id` shows its fence's tag and externalId, as the SDKs read them.
        geofenceId: live?.id ?? d.geofenceId,
        geofenceTag: d.geofenceTag ?? live?.tag ?? null,
        geofenceExternalId: d.geofenceExternalId ?? live?.externalId ?? null,
      },
      eta,
    };
    return mirrorCurrentLeg({ ...trip, legs: trip.legs.map((l) => (l.id === leg.id ? next : l)) });
  }

  /** A geofence leg's fence (by `_id`, else tag and externalId); null for other legs or a fence gone. */
  private async legFence(tenant: Tenant, leg: TripLeg): Promise<Geofence | null> {
    const d = leg.destination;
    if (d.type !== 'geofence') return null;
    if (d.geofenceId !== null) return this.geofences.get(tenant, d.geofenceId);
    if (d.geofenceTag === null || d.geofenceExternalId === null) return null;
    return (
      (await this.fenceByTag(tenant, d.geofenceTag, d.geofenceExternalId)) ??
      (await this.geofences.getByTag(tenant, d.geofenceTag, d.geofenceExternalId))
    );
  }

  /**
   * Checks the geofences of legs given through the API: each must name a live fence, so a trip never
   * starts toward a stop that does not exist. Errors name the leg, e.g. `legs[1].destinationGeofenceExternalId`.
   */
  async requireLegDestinations(tenant: Tenant, legs: TripLegInput[] | undefined, now: number): Promise<void> {
    for (const [i, leg] of (legs ?? []).entries()) {
      let fence: Geofence | null = null;
      let param: string;
      if (leg.destinationGeofenceId !== undefined) {
        param = `legs[${i}].destinationGeofenceId`;
        fence = await this.geofences.get(tenant, leg.destinationGeofenceId);
      } else if (leg.destinationGeofenceTag !== undefined && leg.destinationGeofenceExternalId !== undefined) {
        param = `legs[${i}].destinationGeofenceExternalId`;
        fence = await this.geofences.getByTag(tenant, leg.destinationGeofenceTag, leg.destinationGeofenceExternalId);
      } else continue;
      if (!fence || !isGeofenceLive(fence, now)) throw notFound('geofence', param);
    }
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
