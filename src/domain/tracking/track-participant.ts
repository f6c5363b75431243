import type { Position } from '../../geo/types.js';
import type { LocationEvent } from '../events/event.js';
import type { Geofence } from '../geofences/geofence.js';
import type { TrackUnit } from '../ports/track-unit.js';
import type { Project } from '../projects/project.js';
import type { RegionSet } from '../regions/region.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';

/** One location update, after geofence detection, as every participant of track sees it. */
export interface TrackUpdate {
  tenant: Tenant;
  project: Project;
  /** The user after this update (location, flags and memberships already set), not yet saved. */
  user: User;
  /** The user before this update; null on first sight. */
  previous: User | null;
  /** The update's time (client `updatedAt` when in chronological order, else server time), epoch ms. */
  at: number;
  /** Server time, epoch ms. */
  now: number;
  location: Position;
  accuracyMeters: number;
  stopped: boolean;
  replayed: boolean;
  enteredGeofences: Geofence[];
  insideGeofences: Geofence[];
  /** The raw request body (e.g. `tripOptions`, `beacons`), for participants that read their own fields. */
  body: Record<string, unknown>;
  /** The regions at `location` when the request already looked them up (its jurisdiction check). */
  regions?: RegionSet | undefined;
  /** The track's transaction: trip writes given it commit with the user and events (`TripStore.save`). */
  unit: TrackUnit;
}

export interface TrackContribution {
  /** Events to store and return with this update. */
  events: LocationEvent[];
  /** Fields to add to the `user` of the track response (e.g. `trip`, `place`, `country`). */
  userFields?: Record<string, unknown>;
  /** Changes to keep in `user.state` (the participant's own namespace, e.g. `{ places: ... }`). */
  state?: Record<string, unknown>;
}

/**
 * Something that takes part in every track, after geofence events and before the user is saved,
 * inside the per-user lock. Keeps the track pipeline one list of named steps (pipeline.ts) instead of
 * a growing function.
 */
export interface TrackParticipant {
  readonly name: string;
  /** A participant with nothing to wait for answers at once: `runParticipants` awaits only promises. */
  onTrack(update: TrackUpdate): TrackContribution | Promise<TrackContribution>;
}
