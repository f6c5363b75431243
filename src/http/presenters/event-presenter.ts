import type { LocationEvent } from '../../domain/events/event.js';
import { compact, iso, jsonField, point, pointJson } from './wire.js';

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

/** The fields `presentEvent` prints itself, which a type's `extra` would replace in place. */
const CORE_FIELDS = new Set([
  '_id',
  'live',
  'type',
  'createdAt',
  'actualCreatedAt',
  'user',
  'geofence',
  'trip',
  'location',
  'locationAccuracy',
  'confidence',
  'duration',
  'replayed',
]);

/**
 * `JSON.stringify(presentEvent(e))`, printed field by field: a track answers with its new events,
 * printed once each (see `userJsonWith`).
 */
export function eventJson(e: LocationEvent): string {
  const extra = e.extra ?? {};
  for (const k in extra) if (CORE_FIELDS.has(k)) return JSON.stringify(presentEvent(e));
  let s = `{"_id":${JSON.stringify(e.id)}`;
  s += jsonField('live', e.live);
  s += jsonField('type', e.type);
  s += jsonField('createdAt', iso(e.createdAt));
  s += jsonField('actualCreatedAt', iso(e.actualCreatedAt));
  const u = e.user;
  const user = jsonField('_id', u.id) + jsonField('userId', u.userId) + jsonField('deviceId', u.deviceId);
  s += `,"user":{${(user + jsonField('metadata', u.metadata)).slice(1)}}`;
  s += jsonField('geofence', e.geofence);
  s += jsonField('trip', e.trip);
  for (const k in extra) s += jsonField(k, extra[k]);
  s += `,"location":${pointJson(e.location)}`;
  s += jsonField('locationAccuracy', e.locationAccuracy);
  s += jsonField('confidence', e.confidence);
  s += jsonField('duration', e.duration);
  s += jsonField('replayed', e.replayed ?? false);
  return `${s}}`;
}
