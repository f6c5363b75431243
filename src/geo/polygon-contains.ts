import { normalizeLongitude } from './distance-meters.js';
import type { PreparedPolygon } from './prepare-polygon.js';

/**
 * How close, in degrees (about 0.1 mm), a point must be to an edge to count as on it. Exact float
 * equality would put a vertex computed elsewhere (a rounded midpoint, say) on either side at random.
 */
export const ON_BOUNDARY_DEGREES = 1e-9;

const TOLERANCE_SQUARED = ON_BOUNDARY_DEGREES * ON_BOUNDARY_DEGREES;

/**
 * Whether the point at longitude `lon` and latitude `lat` (degrees; the longitude is wrapped into
 * [-180, 180] first) lies in the prepared polygon: inside its outer ring and not strictly inside any
 * hole, each ring tested on its own (even-odd within a ring). Not even-odd over all rings together:
 * a fence stored before holes were checked may have a hole outside its outer ring, and a point in it
 * was then inside. The boundary is INSIDE: a point on any edge or vertex of the
 * outer ring or of a hole, to within `ON_BOUNDARY_DEGREES`, returns true.
 *
 * Antimeridian-aware: the point is also tried at lon ± 360 where that falls within the polygon's
 * unwrapped extent, so a fence spanning 179..-179 contains 179.5 and -179.5 but not 0. Planar in
 * degrees between vertices (edges are straight in lon/lat, not great circles). NaN gives false.
 * Allocation-free; O(positions) after a bounding-box reject.
 */
export function polygonContains(p: PreparedPolygon, lon: number, lat: number): boolean {
  if (!(lat >= p.minLat - ON_BOUNDARY_DEGREES && lat <= p.maxLat + ON_BOUNDARY_DEGREES)) return false;
  const x0 = lon < -180 || lon > 180 ? normalizeLongitude(lon) : lon;
  for (let k = -1; k <= 1; k++) {
    const x = x0 + 360 * k;
    if (x >= p.minLon - ON_BOUNDARY_DEGREES && x <= p.maxLon + ON_BOUNDARY_DEGREES && containsUnwrapped(p, x, lat)) {
      return true;
    }
  }
  return false;
}

/** Outer ring in, no hole in, in the polygon's own unwrapped longitudes; early on any boundary. */
function containsUnwrapped(p: PreparedPolygon, x: number, y: number): boolean {
  const c = p.coords;
  const starts = p.ringStart;
  const t = ON_BOUNDARY_DEGREES;
  for (let r = 0; r + 1 < starts.length; r++) {
    let inside = false;
    const end = starts[r + 1]!;
    for (let i = starts[r]!; i + 1 < end; i++) {
      const y1 = c[2 * i + 1]!;
      const y2 = c[2 * i + 3]!;
      // Most edges are rejected here, on latitude alone.
      if ((y < y1 - t && y < y2 - t) || (y > y1 + t && y > y2 + t)) continue;
      const x1 = c[2 * i]!;
      const x2 = c[2 * i + 2]!;
      const ex = x2 - x1;
      const ey = y2 - y1;
      if (y1 > y !== y2 > y && x < x1 + ((y - y1) * ex) / ey) inside = !inside;
      if ((x < x1 - t && x < x2 - t) || (x > x1 + t && x > x2 + t)) continue;
      // Within the edge's padded box: on the edge when the perpendicular distance is within t.
      const cross = ex * (y - y1) - ey * (x - x1);
      if (cross * cross <= TOLERANCE_SQUARED * (ex * ex + ey * ey)) return true;
    }
    // Outside the outer ring, or inside a hole: out (a later ring's boundary cannot bring it back in).
    if (inside !== (r === 0)) return false;
  }
  return starts.length > 1;
}
