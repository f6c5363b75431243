import concaveman from 'concaveman';
import type { TravelMode } from '../domain/geofences/geofence.js';
import type { IsochroneBuilder } from '../domain/geofences/isochrone-builder.js';
import { circlePolygon } from '../geo/circle-polygon.js';
import { distanceMeters } from '../geo/distance-meters.js';
import type { Position, Ring } from '../geo/types.js';
import { ESTIMATE_PROFILES } from './estimate-router.js';
import type { RoadRouter } from './road-router.js';

/** Concavity of the hull (concaveman's relative measure: 1 hugs the points, Infinity is convex). */
const CONCAVITY = 2;
/** Hull edges shorter than this (degrees, about 200 m) are not refined further. */
const LENGTH_THRESHOLD = 0.002;

/**
 * Isochrones from the road graphs: a search on reversed edges from the destination collects every
 * junction that reaches it within the time, and the ring is the concave hull of those points. Outside
 * road coverage the ring is the estimate's circle (straight-line reach at the mode's average speed).
 */
export class RoadIsochrones implements IsochroneBuilder {
  constructor(private readonly router: RoadRouter) {}

  ring(destination: Position, minutes: number, mode: TravelMode): Ring {
    const seconds = minutes * 60;
    const snapped = this.router.snapped(destination, mode);
    if (!snapped) return estimateRing(destination, seconds, mode);
    const profile = ESTIMATE_PROFILES[mode];
    const offSeconds = snapped.snap.offMeters / ((profile.speedKmh * 1000) / 3600);
    const points = snapped.graph.reachableTo(snapped.snap, seconds - offSeconds);
    points.push(destination);
    if (points.length < 4) return estimateRing(destination, Math.min(seconds, 120), mode);
    const hull = concaveman(points, CONCAVITY, LENGTH_THRESHOLD) as Position[];
    if (hull.length < 4 || spreadMeters(hull, destination) < 1)
      return estimateRing(destination, Math.min(seconds, 120), mode);
    const first = hull[0]!;
    const last = hull[hull.length - 1]!;
    if (first[0] !== last[0] || first[1] !== last[1]) hull.push([first[0], first[1]]);
    return hull.map(([lon, lat]) => [lon, lat] as Position);
  }
}

function estimateRing(center: Position, seconds: number, mode: TravelMode): Ring {
  const p = ESTIMATE_PROFILES[mode];
  const meters = Math.max(25, (((p.speedKmh * 1000) / 3600) * seconds) / p.detourFactor);
  return circlePolygon(center, meters, 64).coordinates[0]!;
}

function spreadMeters(points: readonly Position[], center: Position): number {
  let max = 0;
  for (const p of points) max = Math.max(max, distanceMeters(p, center));
  return max;
}
