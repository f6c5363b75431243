import { bboxesForLonSpan } from './bbox-around.js';
import type { BBox, PolygonGeometry, Position, Ring } from './types.js';
import { unwrapRing } from './unwrap-ring.js';

// The extent rides at the end of `coords`, after the positions (which `ringStart` bounds): kept in
// fields, its five numbers were five heap objects per polygon for every major collection to mark (a
// double field is a box of its own in this V8), 200,000 of the 2.45 million live objects with 100,000
// fences in memory (2026-11-29 heap snapshot).
// Its five values, in this order: minLon, minLat, maxLon, maxLat, centerLon.
const EXTENT = 5;

/**
 * A polygon laid out for the hot path (`polygonContains`, `polygonBoundaryDistanceMeters`): no
 * GeoJSON objects, just flat numbers. Treat as read-only; build it with `preparePolygon`.
 */
export class PreparedPolygon {
  constructor(
    /**
     * Every ring, outer first then holes, as `lon, lat, lon, lat, …` in degrees, unwrapped so the
     * outer ring's smallest longitude lies in (-180, 180] and each hole sits beside the outer ring.
     * Each ring is stored closed (its first position repeated at its end). Positions end where
     * `ringStart` says; the extent follows them.
     */
    readonly coords: Float64Array,
    /** Ring `r` occupies positions `ringStart[r]` to `ringStart[r + 1] - 1`; one entry more than rings. */
    readonly ringStart: Uint32Array,
    /** Whether `coords` reach past 180, i.e. points west of -180 must also be tried at lon + 360. */
    readonly crossesAntimeridian: boolean,
  ) {}

  /** Extent of `coords`, unwrapped (so `maxLon` may exceed 180). Infinite for an empty polygon. */
  get minLon(): number {
    return this.coords[this.coords.length - EXTENT]!;
  }
  get minLat(): number {
    return this.coords[this.coords.length - EXTENT + 1]!;
  }
  get maxLon(): number {
    return this.coords[this.coords.length - EXTENT + 2]!;
  }
  get maxLat(): number {
    return this.coords[this.coords.length - EXTENT + 3]!;
  }
  /** Middle of the unwrapped longitude extent; queries are wrapped to within 180° of it. */
  get centerLon(): number {
    return this.coords[this.coords.length - EXTENT + 4]!;
  }
}

/**
 * Converts a GeoJSON-style polygon (`[lon, lat]` degrees, outer ring then holes; either winding
 * order; rings closed or not) into a `PreparedPolygon`. Rings crossing the antimeridian, in given
 * (-179 after 179) or continuous (181 after 179) form, are unwrapped. Costs O(positions) and
 * allocates once; call it when a fence is loaded or changed, never per query. Input is not
 * validated: run `validateRing` on untrusted rings first. A polygon without rings prepares to one
 * that contains nothing, with `bbox` `[]`.
 */
export function preparePolygon(polygon: PolygonGeometry): PreparedPolygon {
  const rings: Ring[] = [];
  let outerMid = 0;
  polygon.coordinates.forEach((given, r) => {
    const ring = unwrapRing(given);
    const head = ring[0];
    if (head === undefined) return;
    const tail = ring[ring.length - 1]!;
    if (tail[0] !== head[0] || tail[1] !== head[1]) ring.push([head[0], head[1]]);
    let lo = Infinity;
    let hi = -Infinity;
    for (const [lon] of ring) {
      lo = Math.min(lo, lon);
      hi = Math.max(hi, lon);
    }
    // The outer ring's west edge goes into (-180, 180]; each hole moves to the copy nearest the outer ring.
    const shift = r === 0 ? 360 * Math.ceil((lo - 180) / 360) : 360 * Math.round(((lo + hi) / 2 - outerMid) / 360);
    if (r === 0) outerMid = (lo + hi) / 2 - shift;
    rings.push(shift === 0 ? ring : ring.map(([lon, lat]): Position => [lon - shift, lat]));
  });
  const total = rings.reduce((sum, ring) => sum + ring.length, 0);
  // One buffer for both: a fence index holds a prepared polygon per fence for as long as it runs, and
  // each buffer is one more object (and off-heap block) for every major collection to visit.
  const values = total * 2 + EXTENT;
  const buffer = new ArrayBuffer(values * 8 + (rings.length + 1) * 4);
  const coords = new Float64Array(buffer, 0, values);
  const ringStart = new Uint32Array(buffer, values * 8, rings.length + 1);
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  let k = 0;
  rings.forEach((ring, r) => {
    ringStart[r] = k;
    for (const [lon, lat] of ring) {
      coords[2 * k] = lon;
      coords[2 * k + 1] = lat;
      k++;
      minLon = Math.min(minLon, lon);
      maxLon = Math.max(maxLon, lon);
      minLat = Math.min(minLat, lat);
      maxLat = Math.max(maxLat, lat);
    }
  });
  ringStart[rings.length] = k;
  coords.set([minLon, minLat, maxLon, maxLat, total === 0 ? 0 : (minLon + maxLon) / 2], total * 2);
  return new PreparedPolygon(coords, ringStart, maxLon > 180);
}

/**
 * The polygon's bounding box(es) within [-180, 180], split at the antimeridian as `ringBBoxes` does;
 * `[]` for a polygon without rings. Worked out on each call rather than kept: an index asks for them
 * only when a fence is written, and kept they were four more objects per polygon for the collector.
 */
export function preparedPolygonBBoxes(p: PreparedPolygon): BBox[] {
  return bboxesForLonSpan(p.minLon, p.maxLon, p.minLat, p.maxLat);
}
