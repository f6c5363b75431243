import type { Position } from '../../geo/types.js';
import type { Metadata } from '../metadata.js';

/** Event types Whereabouts emits (Radar's names; see ARCHITECTURE.md §5 and behaviour.md A.3). */
export type EventType =
  | 'user.entered_geofence'
  | 'user.exited_geofence'
  | 'user.dwelled_in_geofence'
  | 'user.started_trip'
  | 'user.updated_trip'
  | 'user.approaching_trip_destination'
  | 'user.arrived_at_trip_destination'
  | 'user.stopped_trip'
  | (string & {});

/**
 * A stored event. Times are epoch ms: `createdAt` is the update's time (client time when in order),
 * `actualCreatedAt` the server time it was made. Type-specific parts (geofence, trip, place, region,
 * beacon) are snapshots taken at event time, already in wire shape.
 */
export interface LocationEvent {
  id: string;
  projectId: string;
  live: boolean;
  type: EventType;
  createdAt: number;
  actualCreatedAt: number;
  /** `installId` is absent from events stored before it was kept (the SDKs read it: RadarEvent's user). */
  user: {
    id: string;
    userId: string | null;
    deviceId: string | null;
    installId?: string | null;
    metadata: Metadata | null;
  };
  location: Position;
  locationAccuracy: number;
  confidence: 1 | 2 | 3;
  /** Minutes, on exit events. */
  duration?: number;
  replayed?: boolean;
  geofence?: Record<string, unknown>;
  trip?: Record<string, unknown>;
  /** Other type-specific snapshots (place, alternatePlaces, region, beacon; a conversion's metadata). */
  extra?: Record<string, unknown>;
  /** What the app said of the event (`PUT /v1/events/:id/verification`); absent until it says. */
  verification?: EventVerification;
  /** The place the app named when it accepted the event. */
  verifiedPlaceId?: string;
}

/** The SDKs' `RadarEventVerification`: accepted 1, rejected -1, unverified 0 (numbers on the wire). */
export type EventVerification = 1 | -1 | 0;

/**
 * Whether two events belong to one update: the same project, times, user, location and accuracy.
 * Printers of several events (stored documents, a track's answer) print what they share once.
 */
export function sameUpdate(a: LocationEvent, b: LocationEvent): boolean {
  return (
    a.projectId === b.projectId &&
    a.live === b.live &&
    a.createdAt === b.createdAt &&
    a.actualCreatedAt === b.actualCreatedAt &&
    a.location === b.location &&
    a.locationAccuracy === b.locationAccuracy &&
    a.replayed === b.replayed &&
    a.user.id === b.user.id &&
    a.user.userId === b.user.userId &&
    a.user.deviceId === b.user.deviceId &&
    a.user.metadata === b.user.metadata
  );
}

/** The event with the app's verdict; a verdict without a place drops the place an earlier one named. */
export function withVerification(
  e: LocationEvent,
  verification: EventVerification,
  verifiedPlaceId: string | null,
): LocationEvent {
  const { verifiedPlaceId: _dropped, ...rest } = e;
  return { ...rest, verification, ...(verifiedPlaceId !== null ? { verifiedPlaceId } : {}) };
}
