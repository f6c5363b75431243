import { bboxesForLonSpan } from './bbox-around.js';
import type { BBox, Ring } from './types.js';

/**
 * A copy of `ring` (`[lon, lat]` degrees) whose longitudes are shifted by multiples of 360 so that
 * consecutive positions never differ by more than 180° of longitude; latitudes are untouched.
 *
 * The first position is kept as given, so the result may reach past ±180 (179 -> -179 becomes
 * 179 -> 181), the convention for rings that cross the antimeridian. A step of exactly 180° is
 * ambiguous and is taken westwards. A ring that winds around a pole comes back unclosed: its last
 * longitude differs from its first by ±360. An empty ring gives an empty ring.
 */
export function unwrapRing(ring: Ring): Ring {
  const out: Ring = [];
  let previous = 0;
  for (const [lon, lat] of ring) {
    const x = out.length === 0 ? lon : lon - 360 * Math.round((lon - previous) / 360);
    out.push([x, lat]);
    previous = x;
  }
  return out;
}

/**
 * The bounding box(es) of a ring of `[lon, lat]` positions in degrees, each within [-180, 180]:
 * one box, or two (eastern part first) when the unwrapped ring crosses the antimeridian, e.g. a
 * ring spanning 179..-179 gives `[179, …, 180, …]` and `[-180, …, -179, …]`. Boxes are inclusive of
 * the ring's own extreme coordinates. An empty ring gives `[]`.
 */
export function ringBBoxes(ring: Ring): BBox[] {
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (const [lon, lat] of unwrapRing(ring)) {
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  return bboxesForLonSpan(minLon, maxLon, minLat, maxLat);
}
