import type { Position } from '../../geo/types.js';
import type { LocationEvent } from '../events/event.js';
import type { Geofence } from '../geofences/geofence.js';
import type { Metadata } from '../metadata.js';
import type { Project } from '../projects/project.js';
import type { RegionSet } from '../regions/region.js';
import type { Tenant } from '../tenant.js';
import type { DeviceType, User } from '../users/user.js';

/** One location update as the HTTP layer hands it over, already validated. Absent fields are undefined. */
export interface TrackRequest {
  tenant: Tenant;
  project: Project;
  deviceId: string;
  /** The app's user id; a track without one acts on the device's user. */
  userId: string | undefined;
  installId: string | undefined;
  /** The SDK's name for what gave the fix (`source` of the body). */
  source?: string | undefined;
  /** `[lon, lat]` in degrees. */
  location: Position;
  /** Meters, greater than 0. */
  accuracyMeters: number;
  foreground: boolean | undefined;
  stopped: boolean | undefined;
  description: string | undefined;
  metadata: Metadata | undefined;
  deviceType: DeviceType | undefined;
  /** The client's timestamp (epoch ms); used only when in chronological order. */
  updatedAt: number | undefined;
  /** Sent from a client's offline buffer (`/track/replay`, or `replayed: true` on a track). */
  replayed: boolean;
  /** The caller's IP address as the server saw it. */
  ip: string | undefined;
  /** The raw body, for participants that read their own fields (`tripOptions`, `beacons`). */
  body: Record<string, unknown>;
  /** The regions at `location` when the jurisdiction check already found them: the Regions step reuses them. */
  regions?: RegionSet;
}

/** What a track produced, for the response. */
export interface TrackResult {
  /** The user as saved. */
  user: User;
  /** Every event of this update (geofences first, then participants'), as stored. */
  events: LocationEvent[];
  /** Fences the user is in after this update. */
  inside: Geofence[];
  /** Fields participants add to the response's user (e.g. `trip`). */
  userFields: Record<string, unknown>;
}
