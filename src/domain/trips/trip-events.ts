import type { Position } from '../../geo/types.js';
import type { EventType, LocationEvent } from '../events/event.js';
import { eventUser } from '../events/geofence-events.js';
import { newId } from '../ids.js';
import type { User } from '../users/user.js';
import type { Trip } from './trip.js';
import type { LegEvent } from './trip-legs.js';

/**
 * Where and when a trip change happened, for its events. A track gives its own point and time;
 * a POST or PATCH gives the user's last known location at server time. `byTrack` says who stores
 * the events: the track pipeline (with the user) or the trip store (with the trip).
 */
export interface EventOrigin {
  user: User;
  location: Position;
  accuracyMeters: number;
  /** The update's time, epoch ms. */
  at: number;
  /** Server time, epoch ms. */
  now: number;
  replayed: boolean;
  byTrack: boolean;
}

/**
 * The origin of a change made through the API, at the user's last location; null when the user has
 * never sent one (then the change has no events: every event carries a location).
 */
export function apiOrigin(user: User | null, now: number): EventOrigin | null {
  if (!user?.location) return null;
  return {
    user,
    location: user.location,
    accuracyMeters: user.locationAccuracy ?? 0,
    at: now,
    now,
    replayed: false,
    byTrack: false,
  };
}

/** Trip events of one change, each embedding `tripSnapshot` (the trip in wire shape). */
export function tripEvents(
  types: EventType[],
  tripSnapshot: Record<string, unknown>,
  origin: EventOrigin | null,
): LocationEvent[] {
  if (!origin) return [];
  const { user } = origin;
  return types.map((type) => ({
    id: newId(),
    projectId: user.projectId,
    live: user.live,
    type,
    createdAt: origin.at,
    actualCreatedAt: origin.now,
    user: eventUser(user),
    location: origin.location,
    locationAccuracy: origin.accuracyMeters,
    // Trip events restate what the service decided, not a guess from a fix: always high confidence.
    confidence: 3,
    ...(origin.replayed ? { replayed: true } : {}),
    trip: tripSnapshot,
  }));
}

/**
 * The events of a legs change: trip events embed the trip, leg events also `leg` (the leg in wire
 * shape as it was at its event, taken from a snapshot of the trip with that leg).
 */
export function legChangeEvents(
  made: LegEvent[],
  trip: Trip,
  snapshot: (trip: Trip) => Record<string, unknown>,
  origin: EventOrigin | null,
): LocationEvent[] {
  if (!origin || made.length === 0) return [];
  const tripSnapshot = snapshot(trip);
  return made.flatMap(({ type, leg }) => {
    const [event] = tripEvents([type], tripSnapshot, origin);
    if (!event) return [];
    if (leg) event.extra = { leg: (snapshot({ ...trip, legs: [leg] }).legs as unknown[])[0] };
    return [event];
  });
}
