import { isTripActive, type Trip, type TripLocation } from '../../domain/trips/trip.js';
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
    locations: locations?.map((l) => ({ ...point(l.coordinates), updatedAt: iso(l.updatedAt) })),
  });
}
