import type { PolygonGeometry, Position } from '../../geo/types.js';
import type { Metadata } from '../metadata.js';

export type GeofenceType = 'circle' | 'polygon' | 'isochrone';
export type TravelMode = 'foot' | 'bike' | 'car';

/** A geofence as the domain holds it. Times are epoch milliseconds. */
export interface Geofence {
  id: string;
  projectId: string;
  live: boolean;
  tag: string | null;
  externalId: string | null;
  description: string;
  type: GeofenceType;
  /** Given ring for polygons; a 64-vertex approximation for circles; the reachable area for isochrones. */
  geometry: PolygonGeometry;
  /** Center for circles, centroid for polygons, destination for isochrones. `[lon, lat]`. */
  geometryCenter: Position;
  /** Meters for circles, approximate radius in meters for polygons, minutes of travel for isochrones. */
  geometryRadius: number;
  mode: TravelMode | null;
  metadata: Metadata | null;
  /** When set, only this app user (the track `userId`) gets events from the fence. */
  userId: string | null;
  enabled: boolean;
  disableAfter: number | null;
  deleteAfter: number | null;
  /** Entry waits for an update with `stopped: true`. */
  stopDetection: boolean | null;
  /** Minutes inside before `user.dwelled_in_geofence`. */
  dwellThreshold: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Whether the fence exists for reads at `now` (deleteAfter has not passed). */
export function isGeofenceLive(g: Pick<Geofence, 'deleteAfter'>, now: number): boolean {
  return g.deleteAfter === null || g.deleteAfter > now;
}

/** Whether the fence generates events at `now`. */
export function isGeofenceEnabled(g: Pick<Geofence, 'enabled' | 'disableAfter'>, now: number): boolean {
  return g.enabled && (g.disableAfter === null || g.disableAfter > now);
}
