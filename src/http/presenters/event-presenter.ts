import type { LocationEvent } from '../../domain/events/event.js';
import { compact, iso, point } from './wire.js';

/**
 * The spec's Event, plus `actualCreatedAt` (server time; `createdAt` is the update's time) and
 * `replayed`. `duration` (minutes) is present on exits and dwells only.
 */
export function presentEvent(e: LocationEvent) {
  return compact({
    _id: e.id,
    live: e.live,
    type: e.type,
    createdAt: iso(e.createdAt),
    actualCreatedAt: iso(e.actualCreatedAt),
    user: compact({ _id: e.user.id, userId: e.user.userId, deviceId: e.user.deviceId, metadata: e.user.metadata }),
    geofence: e.geofence,
    trip: e.trip,
    ...e.extra,
    location: point(e.location),
    locationAccuracy: e.locationAccuracy,
    confidence: e.confidence,
    duration: e.duration,
    replayed: e.replayed ?? false,
  });
}

/**
 * An object whose JSON is `presentEvent(e)`'s, for the events of a track's response. An event without
 * `extra` (every geofence event) is one object literal, absent fields `undefined` where `compact` would
 * drop them (JSON.stringify leaves them out too): one hidden class for all, where `compact`'s copy
 * takes V8's slow path for each field it stores. Only for printing: its keys are not `presentEvent`'s.
 */
export function eventForJson(e: LocationEvent): Record<string, unknown> {
  if (e.extra !== undefined && Object.keys(e.extra).length > 0) return presentEvent(e);
  const u = e.user;
  return {
    _id: e.id ?? undefined,
    live: e.live ?? undefined,
    type: e.type ?? undefined,
    createdAt: iso(e.createdAt),
    actualCreatedAt: iso(e.actualCreatedAt),
    user: {
      _id: u.id ?? undefined,
      userId: u.userId ?? undefined,
      deviceId: u.deviceId ?? undefined,
      metadata: u.metadata ?? undefined,
    },
    geofence: e.geofence ?? undefined,
    trip: e.trip ?? undefined,
    location: point(e.location),
    locationAccuracy: e.locationAccuracy ?? undefined,
    confidence: e.confidence ?? undefined,
    duration: e.duration ?? undefined,
    replayed: e.replayed ?? false,
  };
}
