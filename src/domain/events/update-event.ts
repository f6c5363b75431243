import { newId } from '../ids.js';
import type { TrackUpdate } from '../tracking/track-participant.js';
import type { EventType, LocationEvent } from './event.js';
import { eventUser } from './geofence-events.js';

/**
 * An event of a track participant at this update: dated by the update (`createdAt`) and the server
 * (`actualCreatedAt`), at its location, flagged `replayed` when it was; `duration` (minutes) on exits,
 * `extra` the type-specific snapshots (`beacon`, `insights`, ...). One shape for every participant.
 */
export function updateEvent(
  u: TrackUpdate,
  type: EventType,
  confidence: 1 | 2 | 3,
  extra: Record<string, unknown>,
  durationMinutes?: number,
): LocationEvent {
  return {
    id: newId(),
    projectId: u.user.projectId,
    live: u.user.live,
    type,
    createdAt: u.at,
    actualCreatedAt: u.now,
    user: eventUser(u.user),
    location: u.location,
    locationAccuracy: u.accuracyMeters,
    confidence,
    ...(durationMinutes !== undefined ? { duration: durationMinutes } : {}),
    ...(u.replayed ? { replayed: true } : {}),
    extra,
  };
}
