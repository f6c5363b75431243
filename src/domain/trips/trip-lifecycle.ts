import type { Position } from '../../geo/types.js';
import type { EventType } from '../events/event.js';
import { newId } from '../ids.js';
import type { Metadata } from '../metadata.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';
import {
  DEFAULT_APPROACHING_THRESHOLD_MINUTES,
  isTripActive,
  type SettableTripStatus,
  type Trip,
  type TripEta,
  type TripOptions,
} from './trip.js';
import { mirrorCurrentLeg, newLegs } from './trip-legs.js';

/** Who makes a trip: a known user (`userPk`), or app ids waiting for that user's first track. */
export interface TripOwner {
  userPk: string | null;
  userId: string | null;
  deviceId: string | null;
}

/** The owner a known user makes. */
export function ownerOf(user: Pick<User, 'id' | 'userId' | 'deviceId'>): TripOwner {
  return { userPk: user.id, userId: user.userId, deviceId: user.deviceId };
}

/**
 * A trip started at `now` (epoch ms) with `options`. When `existing` carries the same externalId,
 * it is restarted in place: same `_id` and `createdAt`, everything else as new (ETA, arrival and
 * completion cleared; the caller drops its tracked points).
 */
export function startedTrip(
  tenant: Tenant,
  owner: TripOwner,
  options: TripOptions,
  now: number,
  existing?: Trip | null,
  locate: (address: string) => Position | null = () => null,
): Trip {
  const trip: Trip = {
    id: existing?.id ?? newId(),
    projectId: tenant.projectId,
    live: tenant.live,
    externalId: options.externalId,
    ...owner,
    metadata: options.metadata ?? null,
    mode: options.mode ?? 'car',
    destinationGeofenceTag: options.destinationGeofenceTag ?? null,
    destinationGeofenceExternalId: options.destinationGeofenceExternalId ?? null,
    destinationLocation: null,
    approachingThreshold: options.approachingThreshold ?? null,
    scheduledArrivalAt: options.scheduledArrivalAt ?? null,
    eta: null,
    status: 'started',
    createdAt: existing?.createdAt ?? now,
    startedAt: now,
    updatedAt: now,
    arrivedAt: null,
    completedAt: null,
  };
  if (!options.legs?.length) return trip;
  const legs = newLegs(options.legs, now, locate);
  return mirrorCurrentLeg({ ...trip, legs, currentLegId: legs[0]!.id });
}

/**
 * The trip with the options that are given (absent ones keep their value: the mobile SDKs send only
 * some of them on every track). `changed` says whether any value differs; `rerouted` whether the
 * destination or mode did, so the ETA must be computed again.
 */
export function withOptions(
  trip: Trip,
  options: Partial<TripOptions>,
): { trip: Trip; changed: boolean; rerouted: boolean } {
  const next: Trip = { ...trip };
  // A multi-destination trip's destination is its current leg's: the legs routes change it, not options.
  if (trip.legs?.length)
    options = { ...options, destinationGeofenceTag: undefined, destinationGeofenceExternalId: undefined };
  if (options.metadata !== undefined) next.metadata = options.metadata;
  if (options.mode !== undefined) next.mode = options.mode;
  if (options.destinationGeofenceTag !== undefined) next.destinationGeofenceTag = options.destinationGeofenceTag;
  if (options.destinationGeofenceExternalId !== undefined)
    next.destinationGeofenceExternalId = options.destinationGeofenceExternalId;
  if (options.approachingThreshold !== undefined) next.approachingThreshold = options.approachingThreshold;
  if (options.scheduledArrivalAt !== undefined) next.scheduledArrivalAt = options.scheduledArrivalAt;
  const moved =
    next.destinationGeofenceTag !== trip.destinationGeofenceTag ||
    next.destinationGeofenceExternalId !== trip.destinationGeofenceExternalId;
  // A new destination is looked up afresh: the old point must not stand in for one that is not found.
  if (moved) next.destinationLocation = null;
  const rerouted = moved || next.mode !== trip.mode;
  const changed =
    rerouted ||
    !isSameMetadata(next.metadata, trip.metadata) ||
    next.approachingThreshold !== trip.approachingThreshold ||
    next.scheduledArrivalAt !== trip.scheduledArrivalAt;
  return { trip: next, changed, rerouted };
}

/**
 * The trip after a client sets `status` at `now` (PATCH). Setting the current status changes
 * nothing (event null). `started` on a stopped or expired trip restarts it; `arrived` stamps
 * `arrivedAt`; `completed` and `canceled` stamp `completedAt`.
 */
export function withStatus(
  trip: Trip,
  status: SettableTripStatus,
  now: number,
): { trip: Trip; event: EventType | null } {
  if (trip.status === status) return { trip, event: null };
  const wasActive = isTripActive(trip);
  const next: Trip = { ...trip, status, updatedAt: now };
  let event: EventType;
  switch (status) {
    case 'completed':
    case 'canceled':
      next.completedAt = now;
      event = 'user.stopped_trip';
      break;
    case 'arrived':
      next.arrivedAt = now;
      next.completedAt = null;
      event = 'user.arrived_at_trip_destination';
      break;
    case 'approaching':
      next.arrivedAt = null;
      next.completedAt = null;
      event = 'user.approaching_trip_destination';
      break;
    case 'started':
      next.arrivedAt = null;
      next.completedAt = null;
      if (!wasActive) next.startedAt = now;
      event = wasActive ? 'user.updated_trip' : 'user.started_trip';
      break;
  }
  return { trip: next, event };
}

/** The trip with status `expired` (no event: nothing happened at a place and time to report). */
export function expiredTrip(trip: Trip): Trip {
  return { ...trip, status: 'expired' };
}

/**
 * Automatic statuses after a location update: `arrived` (with `arrivedAt`) when the user is in the
 * destination geofence, else `approaching` when the ETA is at or under the approaching threshold
 * (minutes; the trip's own, else `DEFAULT_APPROACHING_THRESHOLD_MINUTES`). Never moves backwards.
 */
export function advancedTrip(
  trip: Trip,
  update: { eta: TripEta | null; atDestination: boolean; now: number },
): { trip: Trip; events: EventType[] } {
  if (trip.status === 'arrived' || !isTripActive(trip)) return { trip, events: [] };
  if (update.atDestination) {
    return {
      trip: { ...trip, status: 'arrived', arrivedAt: update.now },
      events: ['user.arrived_at_trip_destination'],
    };
  }
  const threshold = trip.approachingThreshold ?? DEFAULT_APPROACHING_THRESHOLD_MINUTES;
  if (trip.status === 'started' && update.eta !== null && update.eta.duration <= threshold) {
    return { trip: { ...trip, status: 'approaching' }, events: ['user.approaching_trip_destination'] };
  }
  return { trip, events: [] };
}

/** Equal dictionaries whatever their key order (a JSON column may not keep it). */
function isSameMetadata(a: Metadata | null, b: Metadata | null): boolean {
  if (a === null || b === null) return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}
