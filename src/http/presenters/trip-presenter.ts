import { isTripActive, type Trip, type TripLocation } from '../../domain/trips/trip.js';
import type { TripLeg } from '../../domain/trips/trip-leg.js';
import { compact, iso, point } from './wire.js';

/**
 * The spec's Trip. `locations` (each point with its `updatedAt`) is given by the reads that show
 * the path; `user.trip` and event snapshots leave it out so every track response stays small.
 */
export function presentTrip(t: Trip, locations?: TripLocation[]) {
  return compact({
    _id: t.id,
    live: t.live,
    externalId: t.externalId,
    metadata: t.metadata,
    mode: t.mode,
    destinationGeofenceTag: t.destinationGeofenceTag,
    destinationGeofenceExternalId: t.destinationGeofenceExternalId,
    destinationLocation: t.destinationLocation ? point(t.destinationLocation) : null,
    approachingThreshold: t.approachingThreshold,
    scheduledArrivalAt: iso(t.scheduledArrivalAt),
    eta: t.eta ? { duration: t.eta.duration, distance: t.eta.distance } : null,
    status: t.status,
    active: isTripActive(t),
    createdAt: iso(t.createdAt),
    startedAt: iso(t.startedAt),
    updatedAt: iso(t.updatedAt),
    arrivedAt: iso(t.arrivedAt),
    completedAt: iso(t.completedAt),
    user: compact({ _id: t.userPk, userId: t.userId, deviceId: t.deviceId }),
    userId: t.userId,
    // Only multi-destination trips have these: a one-destination trip's shape stays as it was.
    currentLeg: t.legs?.length ? (t.currentLegId ?? null) : undefined,
    legs: t.legs?.length ? t.legs.map(presentTripLeg) : undefined,
    locations: locations?.map((l) => ({ ...point(l.coordinates), updatedAt: iso(l.updatedAt) })),
  });
}

/**
 * A trip leg as the mobile SDKs parse it (RadarTripLeg): the destination's `type`, its `source`
 * (a geofence's `_id` with `data {tag, externalId}`, an address's text, or `[lon, lat]`) and
 * `location` (a GeoJSON Point, when known); `stopDuration` in minutes; `eta` for the current leg.
 */
export function presentTripLeg(l: TripLeg) {
  const d = l.destination;
  const data =
    d.type === 'geofence'
      ? compact({ tag: d.geofenceTag, externalId: d.geofenceExternalId })
      : d.type === 'address'
        ? d.address
        : d.location;
  return compact({
    _id: l.id,
    status: l.status,
    destination: compact({
      type: d.type,
      source: compact({ geofence: d.geofenceId, data }),
      address: d.address,
      location: d.location ? point(d.location) : null,
      arrivalRadius: d.arrivalRadius,
    }),
    stopDuration: l.stopDuration,
    metadata: l.metadata,
    eta: l.eta ? { duration: l.eta.duration, distance: l.eta.distance } : null,
    createdAt: iso(l.createdAt),
    updatedAt: iso(l.updatedAt),
    arrivedAt: iso(l.arrivedAt),
    completedAt: iso(l.completedAt),
  });
}
