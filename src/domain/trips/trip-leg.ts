import type { Position } from '../../geo/types.js';
import type { EventType } from '../events/event.js';
import type { Metadata } from '../metadata.js';

/**
 * A leg's status, as the mobile SDKs parse it (RadarTripLeg): one leg at a time is `started`,
 * `approaching` or `arrived` (the trip's `currentLeg`); the ones after it wait as `pending`.
 */
export type TripLegStatus = 'pending' | 'started' | 'approaching' | 'arrived' | 'completed' | 'canceled' | 'expired';

/** Statuses a client may set on a leg (`PATCH /v1/trips/<id>/legs/<legId>`). */
export const SETTABLE_LEG_STATUSES = ['started', 'approaching', 'arrived', 'completed', 'canceled'] as const;
export type SettableLegStatus = (typeof SETTABLE_LEG_STATUSES)[number];

/** Statuses of the leg being travelled (at most one per trip). */
export const ACTIVE_LEG_STATUSES: readonly TripLegStatus[] = ['started', 'approaching', 'arrived'];

/** Legs a trip may have: a route of stops, not a fleet plan. */
export const MAX_TRIP_LEGS = 50;

/** Meters from a coordinates destination within which the user has arrived, when the leg does not say. */
export const DEFAULT_ARRIVAL_RADIUS_METERS = 100;

/** The event each leg status is reported by. */
export const LEG_EVENTS: Readonly<Record<Exclude<TripLegStatus, 'pending' | 'expired'>, EventType>> = {
  started: 'user.started_trip_leg',
  approaching: 'user.approaching_trip_leg_destination',
  arrived: 'user.arrived_at_trip_leg_destination',
  completed: 'user.completed_trip_leg',
  canceled: 'user.canceled_trip_leg',
};

/** Where a leg goes, as a client names it: one geofence (by tag and externalId, or `_id`), an address, or a point. */
export interface TripLegInput {
  destinationGeofenceTag?: string | undefined;
  destinationGeofenceExternalId?: string | undefined;
  destinationGeofenceId?: string | undefined;
  address?: string | undefined;
  /** `[lon, lat]`. */
  coordinates?: Position | undefined;
  /** Meters, for a coordinates destination. */
  arrivalRadius?: number | undefined;
  /** Minutes the stop takes: the leg completes that long after arrival. */
  stopDuration?: number | undefined;
  metadata?: Metadata | undefined;
}

export type TripLegDestinationType = 'geofence' | 'address' | 'coordinates';

export interface TripLegDestination {
  type: TripLegDestinationType;
  geofenceId: string | null;
  geofenceTag: string | null;
  geofenceExternalId: string | null;
  address: string | null;
  /** The point the ETA goes to, `[lon, lat]`: the fence's centre, the geocoded address or the coordinates. */
  location: Position | null;
  /** Meters, for a coordinates destination; null means the default. */
  arrivalRadius: number | null;
}

/** One stop of a multi-destination trip, kept inside the trip. Times are epoch ms. */
export interface TripLeg {
  id: string;
  status: TripLegStatus;
  destination: TripLegDestination;
  stopDuration: number | null;
  metadata: Metadata | null;
  /** To this leg's destination; only the current leg's is kept up to date. */
  eta: { distance: number; duration: number } | null;
  createdAt: number;
  updatedAt: number;
  arrivedAt: number | null;
  completedAt: number | null;
}

export function isLegActive(leg: Pick<TripLeg, 'status'>): boolean {
  return ACTIVE_LEG_STATUSES.includes(leg.status);
}

/** The kind of destination a leg input names (the caller has checked that it names exactly one). */
export function destinationTypeOf(input: TripLegInput): TripLegDestinationType {
  if (input.address !== undefined) return 'address';
  if (input.coordinates !== undefined) return 'coordinates';
  return 'geofence';
}
