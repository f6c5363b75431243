import { circleFencePolygon } from '../../geo/circle-polygon.js';
import type { PolygonGeometry, Position } from '../../geo/types.js';
import type { Geofence } from '../geofences/geofence.js';
import { sharedProjectId } from './shared-project-id.js';

const RINGS = Symbol('rings');

/** A polygon's rings as two flat number arrays: `lon, lat, …` and where each ring ends (in positions). */
interface PackedRings {
  coords: number[];
  ends: number[];
}

type LeanPolygon = Geofence & { [RINGS]: PackedRings };

// Shared getters (not a closure per fence), so lean fences keep sharing V8 hidden classes.
function circleGeometry(this: Geofence): PolygonGeometry {
  return circleFencePolygon(this.geometryCenter, this.geometryRadius);
}

function polygonGeometry(this: LeanPolygon): PolygonGeometry {
  const { coords, ends } = this[RINGS];
  const rings: Position[][] = [];
  let start = 0;
  for (const end of ends) {
    const ring: Position[] = [];
    for (let i = start; i < end; i++) ring.push([coords[2 * i]!, coords[2 * i + 1]!]);
    rings.push(ring);
    start = end;
  }
  return { type: 'Polygon', coordinates: rings };
}

/**
 * The fence as the in-memory indexes keep it: without its GeoJSON `geometry`, which detection never
 * reads (circles are tested from center and radius, polygons through their prepared flat form) but
 * which is most of a fence's memory, and millions of small arrays for the garbage collector to walk.
 * Circles redraw their 64-gon on read; polygons keep their positions in two flat arrays and rebuild
 * the GeoJSON on read. `geometry` reads, spreads and `JSON.stringify` see the same value as before.
 * The fences of a project share one project id string. A ring position with more than two numbers
 * keeps the fence as it is. (Built by a class constructor instead, a lean fence held all its fields
 * in the object, one object fewer each, but an indexed PUT cost 200 µs of server CPU instead of 160:
 * V8's worker threads then marked the old generation all through the row.)
 */
export function leanGeofence(g: Geofence): Geofence {
  const { geometry, ...rest } = g;
  rest.projectId = sharedProjectId(g.projectId);
  if (g.type === 'circle') {
    return Object.defineProperty(rest, 'geometry', {
      get: circleGeometry,
      enumerable: true,
      configurable: true,
    }) as Geofence;
  }
  const packed = pack(geometry);
  if (!packed) return g;
  Object.defineProperty(rest, RINGS, { value: packed, enumerable: false });
  return Object.defineProperty(rest, 'geometry', {
    get: polygonGeometry,
    enumerable: true,
    configurable: true,
  }) as Geofence;
}

function pack(geometry: PolygonGeometry): PackedRings | null {
  const coords: number[] = [];
  const ends: number[] = [];
  for (const ring of geometry.coordinates) {
    for (const position of ring) {
      if (position.length !== 2) return null;
      coords.push(position[0], position[1]);
    }
    ends.push(coords.length / 2);
  }
  return { coords, ends };
}
