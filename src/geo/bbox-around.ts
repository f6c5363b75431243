import { EARTH_RADIUS_METERS, normalizeLongitude } from './distance-meters.js';
import type { BBox, Position } from './types.js';

const RAD = Math.PI / 180;

/**
 * The bounding box(es), `[minLon, minLat, maxLon, maxLat]` in degrees, of the spherical circle of
 * `radiusMeters` around `center` (`[lon, lat]`, degrees). Exact on the sphere, so every point within
 * the radius (boundary included) lies in one of the boxes.
 *
 * Split at the antimeridian as `bboxesForLonSpan` does (eastern part first; touching ±180 adds the
 * zero-width box on the other side). Latitudes are clamped to [-90, 90]; a circle that reaches a
 * pole covers every longitude, so it gets the single box `[-180, minLat, 180, ±90]`. A radius of 0
 * gives the zero-size box of the center. Throws RangeError for a negative or non-finite radius.
 */
export function bboxAround(center: Position, radiusMeters: number): BBox[] {
  if (!(radiusMeters >= 0) || !Number.isFinite(radiusMeters)) {
    throw new RangeError('radiusMeters must be a finite number of at least 0');
  }
  const lon = normalizeLongitude(center[0]);
  const lat = Math.max(-90, Math.min(90, center[1]));
  const angleDegrees = radiusMeters / EARTH_RADIUS_METERS / RAD;
  const minLat = lat - angleDegrees;
  const maxLat = lat + angleDegrees;
  if (minLat <= -90 || maxLat >= 90) {
    return bboxesForLonSpan(-180, 180, Math.max(-90, minLat), Math.min(90, maxLat));
  }
  // Widest longitude offset of a small circle: the meridians tangent to it, not its east/west points.
  const ratio = Math.sin(radiusMeters / EARTH_RADIUS_METERS) / Math.cos(lat * RAD);
  const dLon = Math.asin(Math.min(1, ratio)) / RAD;
  return bboxesForLonSpan(lon - dLon, lon + dLon, minLat, maxLat);
}

/**
 * The bounding box(es), each within [-180, 180], of a longitude span `minLon..maxLon` that may
 * reach past ±180 (as unwrapped coordinates do) and a latitude span, all in degrees.
 *
 * One box, or two when the span crosses the antimeridian: the eastern part ending at 180 first,
 * then the western part starting at -180. A span that merely touches the antimeridian (ends at 180
 * or starts at -180) also gets the zero-width box on the other side, so a bbox lookup of a point
 * written as either 180 or -180 finds it. A span of 360° or more covers every longitude:
 * `[-180, minLat, 180, maxLat]`. An empty or NaN span gives `[]`.
 */
export function bboxesForLonSpan(minLon: number, maxLon: number, minLat: number, maxLat: number): BBox[] {
  if (!(maxLon >= minLon) || !(maxLat >= minLat)) return [];
  if (maxLon - minLon >= 360) return [[-180, minLat, 180, maxLat]];
  // Shift so the western edge lands in (-180, 180]; -180 itself becomes 180 so both sides are covered.
  const shift = 360 * Math.ceil((minLon - 180) / 360);
  const west = minLon - shift;
  const east = maxLon - shift;
  if (east < 180) return [[west, minLat, east, maxLat]];
  return [
    [west, minLat, 180, maxLat],
    [-180, minLat, east - 360, maxLat],
  ];
}
