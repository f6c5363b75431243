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
