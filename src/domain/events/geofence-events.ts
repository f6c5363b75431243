import type { Position } from '../../geo/types.js';
import type { GeofenceTransitions } from '../geofences/detect-transitions.js';
import type { Geofence } from '../geofences/geofence.js';
import { newId } from '../ids.js';
import type { User } from '../users/user.js';
import type { EventType, LocationEvent } from './event.js';

/** The update an event belongs to. Times are epoch ms. */
export interface EventOrigin {
  user: User;
  /** The update's time: the event's `createdAt`. */
  at: number;
  /** Server time: the event's `actualCreatedAt`. */
  now: number;
  /** `[lon, lat]`. */
  location: Position;
  accuracyMeters: number;
  replayed: boolean;
}

/**
 * The events of one update's geofence transitions, in the order clients expect: exits first (so a
 * move between two adjacent fences reads exit, then entry), then entries, then dwells. Exits carry
 * `duration` in minutes since entry; dwells carry the minutes inside so far.
 */
export function geofenceEvents(t: GeofenceTransitions, origin: EventOrigin): LocationEvent[] {
  return [
    ...t.exited.map((x) =>
      makeEvent('user.exited_geofence', x.geofence.geofence, x.confidence, origin, x.durationMinutes),
    ),
    ...t.entered.map((x) => makeEvent('user.entered_geofence', x.geofence.geofence, x.confidence, origin)),
    ...t.dwelled.map((x) =>
      makeEvent('user.dwelled_in_geofence', x.geofence.geofence, x.confidence, origin, x.durationMinutes),
    ),
  ];
}

/** The user as events show it: a snapshot taken at event time, kept even after the user is deleted. */
export function eventUser(u: User): LocationEvent['user'] {
  return { id: u.id, userId: u.userId, deviceId: u.deviceId, metadata: u.metadata };
}

/** The fence as events show it (wire shape; unset fields left out). */
export function eventGeofence(g: Geofence): Record<string, unknown> {
  const out: Record<string, unknown> = { _id: g.id, description: g.description };
  if (g.tag !== null) out.tag = g.tag;
  if (g.externalId !== null) out.externalId = g.externalId;
  if (g.metadata !== null) out.metadata = g.metadata;
  return out;
}

function makeEvent(
  type: EventType,
  geofence: Geofence,
  confidence: 1 | 2 | 3,
  o: EventOrigin,
  durationMinutes?: number,
): LocationEvent {
  return {
    id: newId(),
    projectId: o.user.projectId,
    live: o.user.live,
    type,
    createdAt: o.at,
    actualCreatedAt: o.now,
    user: eventUser(o.user),
    location: o.location,
    locationAccuracy: o.accuracyMeters,
    confidence,
    ...(durationMinutes !== undefined ? { duration: roundMinutes(durationMinutes) } : {}),
    replayed: o.replayed,
    geofence: eventGeofence(geofence),
  };
}

/** Minutes to two decimals: enough for any client, and stable in JSON. */
function roundMinutes(m: number): number {
  return Math.round(m * 100) / 100;
}
