import { type LocationEvent, sameUpdate } from '../../domain/events/event.js';
import { eventGeofenceJson } from '../../domain/events/geofence-events.js';
import { compact, iso, isoField, jsonField, point, pointJson } from './wire.js';

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
    user: compact({
      _id: e.user.id,
      userId: e.user.userId,
      deviceId: e.user.deviceId,
      installId: e.user.installId,
      metadata: e.user.metadata,
    }),
    geofence: e.geofence,
    trip: e.trip,
    ...e.extra,
    location: point(e.location),
    locationAccuracy: e.locationAccuracy,
    confidence: e.confidence,
    duration: e.duration,
    replayed: e.replayed ?? false,
    verification: e.verification,
    verifiedPlaceId: e.verifiedPlaceId,
  });
}

/**
 * An object whose JSON is `presentEvent(e)`'s, for the events of a track's response. An event without
 * `extra` (every geofence event) is one object literal, absent fields `undefined` where `compact` would
 * drop them (JSON.stringify leaves them out too): one hidden class for all, where `compact`'s copy
 * takes V8's slow path for each field it stores. Only for printing: its keys are not `presentEvent`'s.
 */
export function eventForJson(e: LocationEvent): Record<string, unknown> {
  if (hasExtra(e)) return presentEvent(e);
  return {
    _id: e.id ?? undefined,
    live: e.live ?? undefined,
    type: e.type ?? undefined,
    createdAt: iso(e.createdAt),
    actualCreatedAt: iso(e.actualCreatedAt),
    user: userForJson(e.user),
    geofence: e.geofence ?? undefined,
    trip: e.trip ?? undefined,
    location: point(e.location),
    locationAccuracy: e.locationAccuracy ?? undefined,
    confidence: e.confidence ?? undefined,
    duration: e.duration ?? undefined,
    replayed: e.replayed ?? false,
  };
}

/**
 * `JSON.stringify(events.map(presentEvent))`, for a track's answer. A geofence event is printed field
 * by field: what the events of one update share (times, user, location) once for all of them, the
 * fence's snapshot as printed once (`eventGeofenceJson`); any other event through `eventForJson`.
 * Printed whole, the events were over a tenth of a known device's track on the event loop (a move between
 * fences gives six or seven).
 */
export function eventsJson(events: readonly LocationEvent[]): string {
  let out = '[';
  let origin: LocationEvent | undefined;
  let shared = { user: '', times: '', location: '' };
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (i > 0) out += ',';
    if (hasExtra(e) || e.id == null || e.type == null) {
      out += JSON.stringify(eventForJson(e));
      continue;
    }
    if (origin === undefined || !sameUpdate(origin, e)) shared = originJson(e);
    origin = e;
    let s = `{"_id":${JSON.stringify(e.id)}${jsonField('live', e.live)}${jsonField('type', e.type)}`;
    s += `${shared.times},"user":${shared.user}`;
    if (e.geofence !== null && e.geofence !== undefined) s += `,"geofence":${eventGeofenceJson(e.geofence)}`;
    s += `${jsonField('trip', e.trip)}${shared.location}`;
    s += `${jsonField('locationAccuracy', e.locationAccuracy)}${jsonField('confidence', e.confidence)}`;
    out += `${s}${jsonField('duration', e.duration)},"replayed":${e.replayed ?? false}}`;
  }
  return `${out}]`;
}

/** The texts of the fields an update's events share, as `eventForJson` prints them. */
function originJson(e: LocationEvent) {
  return {
    user: JSON.stringify(userForJson(e.user)),
    times: isoField('createdAt', e.createdAt) + isoField('actualCreatedAt', e.actualCreatedAt),
    location: `,"location":${pointJson(e.location)}`,
  };
}

/** Events with type-specific fields (place, region, beacon) or a verdict print through `presentEvent`. */
function hasExtra(e: LocationEvent): boolean {
  return (e.extra !== undefined && Object.keys(e.extra).length > 0) || e.verification !== undefined;
}

/** The event's user as `presentEvent` prints it, absent fields `undefined` (see `eventForJson`). */
function userForJson(u: LocationEvent['user']): Record<string, unknown> {
  return {
    _id: u.id ?? undefined,
    userId: u.userId ?? undefined,
    deviceId: u.deviceId ?? undefined,
    installId: u.installId ?? undefined,
    metadata: u.metadata ?? undefined,
  };
}
