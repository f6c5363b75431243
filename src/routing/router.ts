import type { Position } from '../geo/types.js';
import type { RouteMode } from './graph/profiles.js';

/** One route's length and travel time. */
export interface RouteSummary {
  distanceMeters: number;
  durationSeconds: number;
}

/**
 * Travel distance and time between two points for a mode. Trips ask it for their ETA on every
 * update; the road-graph router of the routing issue will implement it too.
 */
export interface Router {
  /** From `origin` to `destination`, both `[lon, lat]` in degrees. Never rejects for lack of roads. */
  route(origin: Position, destination: Position, mode: RouteMode): Promise<RouteSummary>;
}
