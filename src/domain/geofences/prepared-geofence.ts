import { bboxAround } from '../../geo/bbox-around.js';
import { distanceMeters } from '../../geo/distance-meters.js';
import { polygonBoundaryDistanceMeters } from '../../geo/polygon-boundary-distance-meters.js';
import { polygonContains } from '../../geo/polygon-contains.js';
import { type PreparedPolygon, preparedPolygonBBoxes, preparePolygon } from '../../geo/prepare-polygon.js';
import type { BBox, Position } from '../../geo/types.js';
import type { Geofence } from './geofence.js';

/** A circle fence, tested exactly from `geofence.geometryCenter` and its radius (never via its 64-gon). */
export interface PreparedCircleGeofence {
  readonly kind: 'circle';
  readonly geofence: Geofence;
  /** `geofence.geometryCenter`, `[lon, lat]` degrees. */
  readonly center: Position;
  readonly radiusMeters: number;
  /** The fence's own size in meters, compared with the fix accuracy for confidence 1. */
  readonly sizeMeters: number;
}

/** A polygon or isochrone fence, tested through its prepared outer ring and holes. */
export interface PreparedPolygonGeofence {
  readonly kind: 'polygon';
  readonly geofence: Geofence;
  readonly polygon: PreparedPolygon;
  readonly sizeMeters: number;
}

/**
 * A geofence plus a shape that answers point queries fast. It references (does not copy) the
 * `Geofence`, so event payloads still read description, tag, metadata from `geofence`.
 */
export type PreparedGeofence = PreparedCircleGeofence | PreparedPolygonGeofence;

/**
 * Where a fence record may carry its polygon prepared already (a lean fence does, `leanGeofence`):
 * `prepareGeofence` then takes it instead of preparing the polygon again from `geometry`.
 */
export const PREPARED_POLYGON: unique symbol = Symbol('preparedPolygon');

/**
 * Prepares a geofence for point tests. Circles keep center + `geometryRadius` meters. Polygons and
 * isochrones prepare `geometry`; their size is `geometryRadius` meters for polygons, and for
 * isochrones (whose `geometryRadius` is minutes of travel) the farthest outer-ring vertex from
 * `geometryCenter`.
 */
export function prepareGeofence(g: Geofence): PreparedGeofence {
  if (g.type === 'circle') {
    // Shared, not copied: a million fences would otherwise add two million small objects for the GC.
    return {
      kind: 'circle',
      geofence: g,
      center: g.geometryCenter,
      radiusMeters: g.geometryRadius,
      sizeMeters: g.geometryRadius,
    };
  }
  const polygon = (g as { [PREPARED_POLYGON]?: PreparedPolygon })[PREPARED_POLYGON] ?? preparePolygon(g.geometry);
  const sizeMeters = g.type === 'isochrone' ? farthestVertexMeters(g) : g.geometryRadius;
  return { kind: 'polygon', geofence: g, polygon, sizeMeters };
}

function farthestVertexMeters(g: Geofence): number {
  let max = 0;
  for (const position of g.geometry.coordinates[0] ?? []) {
    max = Math.max(max, distanceMeters(g.geometryCenter, position));
  }
  return max;
}

/**
 * Whether `[lon, lat]` (degrees) lies in the fence. The boundary counts as inside (a circle holds
 * points at exactly its radius); polygon holes are outside; antimeridian-spanning fences work.
 */
export function containsPoint(pg: PreparedGeofence, lon: number, lat: number): boolean {
  if (pg.kind === 'circle') return distanceMeters(pg.center, [lon, lat]) <= pg.radiusMeters;
  return polygonContains(pg.polygon, lon, lat);
}

/**
 * Meters from `[lon, lat]` (degrees) to the fence boundary, signed: positive = inside by that many
 * meters, negative = outside by that many, 0 on the boundary (which is inside, as in `containsPoint`:
 * `containsPoint` is exactly `signedBoundaryDistanceMeters >= 0`). A point in a polygon hole is
 * outside by its distance to the hole's ring.
 */
export function signedBoundaryDistanceMeters(
  pg: PreparedGeofence,
  lon: number,
  lat: number,
  /** `containsPoint(pg, lon, lat)`, when the caller has it already (a polygon's test is not repeated). */
  inside?: boolean,
): number {
  if (pg.kind === 'circle') return pg.radiusMeters - distanceMeters(pg.center, [lon, lat]);
  const d = polygonBoundaryDistanceMeters(pg.polygon, lon, lat);
  // Math.abs keeps the sign meaningful even if the boundary distance rounds to -0.
  return (inside ?? polygonContains(pg.polygon, lon, lat)) ? Math.abs(d) : -Math.max(Math.abs(d), Number.MIN_VALUE);
}

/**
 * Meters from `[lon, lat]` to the nearest point of the fence: 0 inside (boundary included), else
 * the distance to its boundary.
 */
export function distanceToGeofenceMeters(pg: PreparedGeofence, lon: number, lat: number): number {
  if (pg.kind === 'polygon') return distanceToPolygonMeters(pg.polygon, lon, lat);
  return Math.max(0, -signedBoundaryDistanceMeters(pg, lon, lat));
}

/** `distanceToGeofenceMeters` of a polygon fence, from its prepared polygon alone. */
export function distanceToPolygonMeters(polygon: PreparedPolygon, lon: number, lat: number): number {
  if (polygonContains(polygon, lon, lat)) return 0;
  // As signedBoundaryDistanceMeters has it outside: never 0, which would read as inside.
  return Math.max(Math.abs(polygonBoundaryDistanceMeters(polygon, lon, lat)), Number.MIN_VALUE);
}

/**
 * The fence's bounding boxes in degrees, each within [-180, 180]: one, or two when it spans the
 * antimeridian. Circles use the box around their exact circle, polygons the box of their ring.
 */
export function geofenceBBoxes(pg: PreparedGeofence): BBox[] {
  if (pg.kind === 'circle') return bboxAround(pg.center, pg.radiusMeters);
  return preparedPolygonBBoxes(pg.polygon);
}
