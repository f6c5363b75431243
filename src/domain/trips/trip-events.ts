import type { Position } from '../../geo/types.js';
import type { EventType, LocationEvent } from '../events/event.js';
import { newId } from '../ids.js';
import type { User } from '../users/user.js';

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
    user: { id: user.id, userId: user.userId, deviceId: user.deviceId, metadata: user.metadata },
    location: origin.location,
    locationAccuracy: origin.accuracyMeters,
    // Trip events restate what the service decided, not a guess from a fix: always high confidence.
    confidence: 3,
    ...(origin.replayed ? { replayed: true } : {}),
    trip: tripSnapshot,
  }));
}
