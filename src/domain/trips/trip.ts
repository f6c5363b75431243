import type { Position } from '../../geo/types.js';
import type { TravelMode } from '../geofences/geofence.js';
import type { Metadata } from '../metadata.js';
import type { TripLeg, TripLegInput } from './trip-leg.js';

export type TripStatus = 'started' | 'approaching' | 'arrived' | 'expired' | 'completed' | 'canceled';

/** Statuses a client may set (spec, PATCH trip); `expired` is only ever set by the service. */
export const SETTABLE_TRIP_STATUSES = ['started', 'approaching', 'arrived', 'completed', 'canceled'] as const;
export type SettableTripStatus = (typeof SETTABLE_TRIP_STATUSES)[number];

export const TRIP_STATUSES: readonly TripStatus[] = [...SETTABLE_TRIP_STATUSES, 'expired'];

/** Statuses in which a trip is still tracked (and shown as `user.trip`). */
export const ACTIVE_TRIP_STATUSES: readonly TripStatus[] = ['started', 'approaching', 'arrived'];

/**
 * A trip's travel mode: the spec's three and the two more every SDK offers for trips (radar-sdk-js
 * `RadarTravelMode`, iOS `RadarRouteMode`, Android `RadarRouteMode`): trucks on their own graph,
 * motorbikes on the car graph re-timed, as in route distance.
 */
export type TripMode = TravelMode | 'truck' | 'motorbike';
export const TRIP_MODES: readonly TripMode[] = ['foot', 'bike', 'car', 'truck', 'motorbike'];

/**
 * Minutes of ETA at or under which a trip becomes `approaching` when neither the trip nor the
 * project says otherwise (Radar's dashboard setting has no documented default; 5 minutes is ours).
 */
export const DEFAULT_APPROACHING_THRESHOLD_MINUTES = 5;

/** The trip options of `POST /v1/trips`, `PATCH .../update` and track's `tripOptions`. */
export interface TripOptions {
  externalId: string;
  destinationGeofenceTag?: string | undefined;
  destinationGeofenceExternalId?: string | undefined;
  mode?: TripMode | undefined;
  metadata?: Metadata | undefined;
  /** Minutes. */
  approachingThreshold?: number | undefined;
  /** Epoch ms. */
  scheduledArrivalAt?: number | undefined;
  /** The stops of a multi-destination trip, in order; they replace the destination fields above. */
  legs?: TripLegInput[] | undefined;
}

/** `distance` in meters, `duration` in minutes (floats, as the SDKs read them). */
export interface TripEta {
  distance: number;
  duration: number;
}

/** A point tracked while the trip was active. `updatedAt` is the update's time, epoch ms. */
export interface TripLocation {
  coordinates: Position;
  updatedAt: number;
}

/**
 * A trip. Times are epoch milliseconds. Its tracked points live beside it in the store
 * (`TripLocation`), so an update does not rewrite the whole path.
 */
export interface Trip {
  id: string;
  projectId: string;
  live: boolean;
  /** Unique per project and environment. */
  externalId: string;
  /**
   * The internal `_id` of the user making the trip; null while the trip waits for its user's first
   * track (started with `POST /v1/trips` for a `userId` never seen yet).
   */
  userPk: string | null;
  /** The app's ids of that user, as snapshots. */
  userId: string | null;
  deviceId: string | null;
  metadata: Metadata | null;
  mode: TripMode;
  destinationGeofenceTag: string | null;
  destinationGeofenceExternalId: string | null;
  /** The destination geofence's `geometryCenter`, `[lon, lat]`. */
  destinationLocation: Position | null;
  /** Minutes; null means the default. */
  approachingThreshold: number | null;
  scheduledArrivalAt: number | null;
  eta: TripEta | null;
  status: TripStatus;
  createdAt: number;
  /** When the trip was last started (created, or restarted). */
  startedAt: number;
  /** Last location update or change of the trip; expiry counts from here. */
  updatedAt: number;
  arrivedAt: number | null;
  /** When the trip was completed or canceled. */
  completedAt: number | null;
  /**
   * A multi-destination trip's stops, in order (absent on one-destination trips and on trips stored
   * before legs existed). The destination fields and `eta` above then mirror the current leg's.
   */
  legs?: TripLeg[];
  /** The `_id` of the leg being travelled; null once none is (every leg done). */
  currentLegId?: string | null;
}

/** Whether the trip is a multi-destination one. */
export function hasLegs(trip: Pick<Trip, 'legs'>): trip is Trip & { legs: TripLeg[] } {
  return trip.legs !== undefined && trip.legs.length > 0;
}

/** Whether the trip is still tracked: started, approaching or arrived. */
export function isTripActive(trip: Pick<Trip, 'status'>): boolean {
  return ACTIVE_TRIP_STATUSES.includes(trip.status);
}

/** Whether an active trip has gone `expiryMinutes` without an update at `now` (epoch ms). */
export function isTripStale(trip: Pick<Trip, 'status' | 'updatedAt'>, now: number, expiryMinutes: number): boolean {
  return isTripActive(trip) && now - trip.updatedAt >= expiryMinutes * 60_000;
}

/** Whether the trip has a destination geofence named by tag and externalId. */
export function hasDestination(
  trip: Pick<Trip, 'destinationGeofenceTag' | 'destinationGeofenceExternalId'>,
): trip is Trip & { destinationGeofenceTag: string; destinationGeofenceExternalId: string } {
  return trip.destinationGeofenceTag !== null && trip.destinationGeofenceExternalId !== null;
}
