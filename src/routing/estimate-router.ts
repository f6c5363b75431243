import { distanceMeters } from '../geo/distance-meters.js';
import type { Position } from '../geo/types.js';
import type { RouteMode } from './graph/profiles.js';
import type { Router, RouteSummary } from './router.js';

/** How much longer than the straight line a typical trip by each mode is, and how fast it goes. */
export interface EstimateProfile {
  detourFactor: number;
  speedKmh: number;
}

/**
 * Per-mode estimate profiles: urban averages, not measurements. Roads wind more than paths (car
 * 1.3) and cars lose most of their speed to traffic and junctions in town (40 km/h); motorbikes a
 * little less (45), trucks more (35: slower to accelerate, lower limits).
 */
export const ESTIMATE_PROFILES: Readonly<Record<RouteMode, EstimateProfile>> = {
  car: { detourFactor: 1.3, speedKmh: 40 },
  motorbike: { detourFactor: 1.3, speedKmh: 45 },
  truck: { detourFactor: 1.3, speedKmh: 35 },
  bike: { detourFactor: 1.25, speedKmh: 15 },
  foot: { detourFactor: 1.2, speedKmh: 5 },
};

/**
 * An estimate, not a route: great-circle distance times the mode's detour factor, travelled at the
 * mode's average speed. Stands in until the road-graph router lands, and stays its fallback outside
 * road coverage (ARCHITECTURE.md §5), so it never fails.
 */
export class EstimateRouter implements Router {
  async route(origin: Position, destination: Position, mode: RouteMode): Promise<RouteSummary> {
    return estimateRoute(origin, destination, mode);
  }
}

/**
 * The estimate for `[lon, lat]` points: meters along the estimated path and seconds to travel it.
 * Zero for equal points.
 */
export function estimateRoute(origin: Position, destination: Position, mode: RouteMode): RouteSummary {
  const profile = ESTIMATE_PROFILES[mode];
  const meters = distanceMeters(origin, destination) * profile.detourFactor;
  return { distanceMeters: meters, durationSeconds: meters / ((profile.speedKmh * 1000) / 3600) };
}
