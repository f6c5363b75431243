import { METERS_PER_DEGREE } from './distance-meters.js';
import type { PreparedPolygon } from './prepare-polygon.js';
import { segmentDistanceSquared } from './segment-distance.js';

const RAD = Math.PI / 180;

/**
 * Distance in meters from the point at longitude `lon`, latitude `lat` (degrees) to the nearest
 * edge of any ring of the prepared polygon, outer or hole. Unsigned: the same whether the point is
 * inside or outside (pair it with `polygonContains`); 0 on the boundary. `Infinity` for a polygon
 * without rings.
 *
 * Uses a local equirectangular projection centred on the point (east scaled by cos(lat)), so it is
 * accurate to well under 1% for edges within tens of km at mid latitudes; the error grows with
 * distance and near the poles, where meridians converge. Antimeridian-aware: the point is wrapped to
 * within 180° of the polygon's middle longitude before projecting. Allocation-free; O(positions).
 */
export function polygonBoundaryDistanceMeters(p: PreparedPolygon, lon: number, lat: number): number {
  const c = p.coords;
  const starts = p.ringStart;
  const x0 = lon + 360 * Math.round((p.centerLon - lon) / 360);
  const ky = METERS_PER_DEGREE;
  const kx = METERS_PER_DEGREE * Math.cos(lat * RAD);
  let best = Infinity;
  for (let r = 0; r + 1 < starts.length; r++) {
    const start = starts[r]!;
    const end = starts[r + 1]!;
    if (end <= start) continue;
    // Projected edge endpoints relative to the point, which sits at the origin.
    let ax = (c[2 * start]! - x0) * kx;
    let ay = (c[2 * start + 1]! - lat) * ky;
    for (let i = start + 1; i < end; i++) {
      const bx = (c[2 * i]! - x0) * kx;
      const by = (c[2 * i + 1]! - lat) * ky;
      const d2 = segmentDistanceSquared(ax, ay, bx, by);
      if (d2 < best) best = d2;
      ax = bx;
      ay = by;
    }
  }
  return Math.sqrt(best);
}
