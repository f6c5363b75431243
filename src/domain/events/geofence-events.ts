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
  // One user snapshot for all: its text is then printed once for them all (eventDocuments, eventsJson).
  const user = eventUser(origin.user);
  return [
    ...t.exited.map((x) =>
      makeEvent('user.exited_geofence', x.geofence.geofence, x.confidence, origin, user, x.durationMinutes),
    ),
    ...t.entered.map((x) => makeEvent('user.entered_geofence', x.geofence.geofence, x.confidence, origin, user)),
    ...t.dwelled.map((x) =>
      makeEvent('user.dwelled_in_geofence', x.geofence.geofence, x.confidence, origin, user, x.durationMinutes),
    ),
  ];
}

/** The user as events show it: a snapshot taken at event time, kept even after the user is deleted. */
export function eventUser(u: User): LocationEvent['user'] {
  return { id: u.id, userId: u.userId, deviceId: u.deviceId, installId: u.installId, metadata: u.metadata };
}

/**
 * The fence as events show it (wire shape; unset fields left out): one frozen snapshot per fence
 * object, its JSON printed with it (`eventGeofenceJson`). Fences are never changed in place (a change
 * makes a new object), so neither is what the snapshot holds.
 */
export function eventGeofence(g: Geofence): Record<string, unknown> {
  let out = snapshots.get(g);
  if (out === undefined) {
    // Every key in one literal, unset ones undefined (which JSON leaves out, as it does a missing key):
    // added one by one, the last three went to an out-of-object property array, one more object per
    // fence for every major collection to mark.
    out = Object.freeze({
      _id: g.id,
      description: g.description,
      tag: g.tag ?? undefined,
      externalId: g.externalId ?? undefined,
      metadata: g.metadata ?? undefined,
    });
    snapshots.set(g, out);
    snapshotJson.set(out, JSON.stringify(out));
  }
  return out;
}

const snapshots = new WeakMap<Geofence, Readonly<Record<string, unknown>>>();
const snapshotJson = new WeakMap<object, string>();

/**
 * `JSON.stringify(geofence)` for an event's `geofence`. A snapshot `eventGeofence` made is printed once:
 * a track prints each of its events twice (the stored document, the answer), and the devices in one
 * area cross the same fences over and over (~0.6 µs a print, a few µs of a track that enters and exits).
 */
export function eventGeofenceJson(geofence: object): string {
  return snapshotJson.get(geofence) ?? JSON.stringify(geofence);
}

function makeEvent(
  type: EventType,
  geofence: Geofence,
  confidence: 1 | 2 | 3,
  o: EventOrigin,
  user: LocationEvent['user'],
  durationMinutes?: number,
): LocationEvent {
  return {
    id: newId(),
    projectId: o.user.projectId,
    live: o.user.live,
    type,
    createdAt: o.at,
    actualCreatedAt: o.now,
    user,
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
