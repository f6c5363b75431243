import { destinationAtBearing, destinationBasis, normalizeLongitude } from './distance-meters.js';
import type { PolygonGeometry, Position, Ring } from './types.js';

/**
 * A polygon approximating the spherical circle of `radiusMeters` around `center` (`[lon, lat]`,
 * degrees): one counter-clockwise ring (in the lon/lat plane) of `vertices + 1` positions, the last
 * equal to the first, every vertex exactly `radiusMeters` from the center (the chords between
 * vertices lie slightly inside the true circle). The first vertex is due north of the center
 * (except for polar caps, below).
 *
 * Longitudes are continuous around the center's longitude (normalised to [-180, 180]), so a circle
 * over the antimeridian runs past ±180 by up to its own width (e.g. 179.99 -> 180.02), never
 * jumping by 360. Latitudes stay within [-90, 90].
 *
 * A circle that contains a pole (or is centred on one) is returned as a polar cap: its vertices run
 * once through 360° of longitude (so its longitudes span exactly 360°, somewhere within [-360, 360]),
 * then the ring returns along the pole's latitude in three 120° steps and closes, `vertices + 6`
 * positions in all. Such a ring unwraps, validates and prepares like any other.
 *
 * Throws RangeError for a radius that is not a positive finite number, or `vertices` that is not
 * an integer of at least 3.
 */
export function circlePolygon(center: Position, radiusMeters: number, vertices = 64): PolygonGeometry {
  if (!(radiusMeters > 0) || !Number.isFinite(radiusMeters)) {
    throw new RangeError('radiusMeters must be a positive finite number');
  }
  if (!Number.isInteger(vertices) || vertices < 3) throw new RangeError('vertices must be an integer of at least 3');
  const centerLon = normalizeLongitude(center[0]);
  const origin: Position = [centerLon, Math.max(-90, Math.min(90, center[1]))];
  const ring: Ring = [];
  const basis = destinationBasis(origin, radiusMeters);
  let previousLon = 0;
  const bearings = bearingTable(vertices);
  for (let i = 0; i <= vertices; i++) {
    const p = destinationAtBearing(basis, bearings.cos[i]!, bearings.sin[i]!);
    const lon = centerLon + normalizeLongitude(p[0] - centerLon);
    // `unwrapRing`'s step, done here on the position just made rather than on a copy of the ring.
    p[0] = i === 0 ? lon : lon - 360 * Math.round((lon - previousLon) / 360);
    previousLon = p[0];
    ring.push(p);
  }
  const first = ring[0]!;
  const winding = Math.round((ring[vertices]![0] - first[0]) / 360);
  if (winding === 0) {
    // sin(2π) is not quite 0: copy the first vertex so the ring closes exactly.
    ring[vertices] = [first[0], first[1]];
    return { type: 'Polygon', coordinates: [ring] };
  }
  return { type: 'Polygon', coordinates: [polarCap(ring, winding, origin[1] >= 0)] };
}

/** Radians per degree, as `destinationAt` converts bearings. */
const RAD = Math.PI / 180;

interface BearingTable {
  cos: Float64Array;
  sin: Float64Array;
}
const bearingTables = new Map<number, BearingTable>();

/**
 * Cosines and sines of the bearings of a circle of `vertices` (the last equal to the first), computed
 * once per vertex count: half of the trigonometry of every circle. The bearing in radians is the one
 * `destinationAt` would compute, so the positions are the same to the bit.
 */
function bearingTable(vertices: number): BearingTable {
  let table = bearingTables.get(vertices);
  if (table === undefined) {
    table = { cos: new Float64Array(vertices + 1), sin: new Float64Array(vertices + 1) };
    for (let i = 0; i <= vertices; i++) {
      // Bearings turn clockwise on a map, so walking them backwards draws the ring counter-clockwise.
      const bearing = ((-360 * i) / vertices) * RAD;
      table.cos[i] = Math.cos(bearing);
      table.sin[i] = Math.sin(bearing);
    }
    // Callers use a few vertex counts; an odd caller asking for many others is not kept.
    if (bearingTables.size < 16) bearingTables.set(vertices, table);
  }
  return table;
}

/** Vertices of a circle geofence's outline. */
const FENCE_VERTICES = 64;
/** 6 decimal places of a degree, about 11 cm: RFC 7946 §11.2 finds that enough for any position. */
const FENCE_PRECISION = 1e6;

/**
 * The outline a circle geofence is stored and answered with: `circlePolygon`'s 64-gon, its positions
 * rounded to 6 decimal places. Detection tests circles by center and radius, never by this outline,
 * and a shorter print of it is a third of the cost of writing a circle fence (its ~130 doubles were
 * 2.5 KB of every document and response; now 1.5 KB).
 */
export function circleFencePolygon(center: Position, radiusMeters: number): PolygonGeometry {
  const polygon = circlePolygon(center, radiusMeters, FENCE_VERTICES);
  // Every position of a new circle is an array of its own: rounded in place, not copied.
  for (const ring of polygon.coordinates) {
    for (const position of ring) {
      position[0] = Math.round(position[0] * FENCE_PRECISION) / FENCE_PRECISION;
      position[1] = Math.round(position[1] * FENCE_PRECISION) / FENCE_PRECISION;
    }
  }
  return polygon;
}

/**
 * Closes a ring whose longitudes wind once around a pole into a counter-clockwise polar cap.
 * Counter-clockwise means the circle runs east with the north pole on its left, west for the south.
 */
function polarCap(samples: Ring, winding: number, north: boolean): Ring {
  const wantedWinding = north ? 1 : -1;
  const ring = winding === wantedWinding ? samples : samples.reverse();
  const first = ring[0]!;
  const startLon = first[0];
  const endLon = startLon + 360 * wantedWinding;
  ring[ring.length - 1] = [endLon, first[1]];
  const poleLat = north ? 90 : -90;
  // 120° steps, not one 360° jump, so unwrapping never folds the pole edge onto itself.
  for (let k = 0; k <= 3; k++) ring.push([endLon + ((startLon - endLon) * k) / 3, poleLat]);
  ring.push([startLon, first[1]]);
  // Keep the cap's longitudes within [-360, 360]: shift its midpoint into [-180, 180).
  const shift = 360 * Math.floor((startLon + endLon) / 720 + 0.5);
  return shift === 0 ? ring : ring.map(([lon, lat]): Position => [lon - shift, lat]);
}
