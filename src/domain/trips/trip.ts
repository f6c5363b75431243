import type { Position } from '../../geo/types.js';
import type { TravelMode } from '../geofences/geofence.js';
import type { Metadata } from '../metadata.js';

export type TripStatus = 'started' | 'approaching' | 'arrived' | 'expired' | 'completed' | 'canceled';

/** Statuses in which a trip is still tracked. */
export const ACTIVE_TRIP_STATUSES: readonly TripStatus[] = ['started', 'approaching', 'arrived'];

/** A trip. Times are epoch milliseconds; ETA distance in meters and duration in minutes. */
export interface Trip {
  id: string;
  projectId: string;
  live: boolean;
  externalId: string;
  /** The internal `_id` of the user making the trip, and their app ids as snapshots. */
  userPk: string;
  userId: string | null;
  deviceId: string | null;
  metadata: Metadata | null;
  mode: TravelMode;
  destinationGeofenceTag: string | null;
  destinationGeofenceExternalId: string | null;
  destinationGeofenceId: string | null;
  destinationLocation: Position | null;
  /** Minutes of ETA at or under which the trip becomes approaching. */
  approachingThreshold: number | null;
  scheduledArrivalAt: number | null;
  eta: { distance: number; duration: number } | null;
  status: TripStatus;
  createdAt: number;
  updatedAt: number;
  arrivedAt: number | null;
  completedAt: number | null;
  locations: Array<{ coordinates: Position; updatedAt: number }>;
}
