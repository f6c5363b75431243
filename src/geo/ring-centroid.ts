import { distanceMeters, normalizeLongitude } from './distance-meters.js';
import type { Position, Ring } from './types.js';
import { unwrapRing } from './unwrap-ring.js';

/**
 * The area-weighted centroid, `[lon, lat]` in degrees, of a ring of `[lon, lat]` positions, computed
 * in the lon/lat plane (fine for fences; not a spherical centroid for continent-sized rings).
 *
 * The ring is unwrapped first, so a ring over the antimeridian gets a centroid near ±180 rather than
 * near 0; the result's longitude is normalised to [-180, 180]. Either winding order gives the same
 * point. A closed or unclosed ring is accepted (the closing edge is implied). A degenerate ring
 * (zero area: all positions on one line, or fewer than 3 distinct) falls back to the mean of its
 * positions, counting the closing repeat once. For a non-convex ring the centroid may lie outside
 * it. Throws RangeError for an empty ring.
 */
export function ringCentroid(ring: Ring): Position {
  const u = unwrapRing(ring);
  const head = u[0];
  if (head === undefined) throw new RangeError('ring must have at least one position');
  const tail = u[u.length - 1]!;
  const n = u.length > 1 && tail[0] === head[0] && tail[1] === head[1] ? u.length - 1 : u.length;
  // Coordinates relative to the first position keep the cross products from cancelling.
  const [x0, y0] = head;
  let area2 = 0;
  let sumX = 0;
  let sumY = 0;
  let minX = 0;
  let maxX = 0;
  let minY = 0;
  let maxY = 0;
  for (let i = 0; i < n; i++) {
    const a = u[i]!;
    const b = u[(i + 1) % n]!;
    const ax = a[0] - x0;
    const ay = a[1] - y0;
    const bx = b[0] - x0;
    const by = b[1] - y0;
    const cross = ax * by - bx * ay;
    area2 += cross;
    sumX += (ax + bx) * cross;
    sumY += (ay + by) * cross;
    minX = Math.min(minX, ax);
    maxX = Math.max(maxX, ax);
    minY = Math.min(minY, ay);
    maxY = Math.max(maxY, ay);
  }
  // Collinear positions leave rounding noise for an area; relative to the box that noise is tiny.
  if (Math.abs(area2) <= 1e-12 * (maxX - minX) * (maxY - minY)) return vertexMean(u, n);
  return [normalizeLongitude(x0 + sumX / (3 * area2)), y0 + sumY / (3 * area2)];
}

function vertexMean(u: Ring, n: number): Position {
  let x = 0;
  let y = 0;
  for (let i = 0; i < n; i++) {
    x += u[i]![0];
    y += u[i]![1];
  }
  return [normalizeLongitude(x / n), y / n];
}

/**
 * The largest great-circle distance in meters from `center` (`[lon, lat]`, degrees) to any position
 * of `ring`, so a circle of that radius around `center` holds every vertex (and, for fences much
 * smaller than the Earth, the whole ring). Antimeridian-safe. 0 for an empty ring.
 */
export function approximateRadiusMeters(ring: Ring, center: Position): number {
  let radius = 0;
  for (const p of ring) radius = Math.max(radius, distanceMeters(center, p));
  return radius;
}
