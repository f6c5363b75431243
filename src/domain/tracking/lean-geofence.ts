import { circleFencePolygon } from '../../geo/circle-polygon.js';
import { type PreparedPolygon, preparePolygon } from '../../geo/prepare-polygon.js';
import type { PolygonGeometry, Position } from '../../geo/types.js';
import type { Geofence } from '../geofences/geofence.js';
import { PREPARED_POLYGON } from '../geofences/prepared-geofence.js';
import { sharedProjectId } from './shared-project-id.js';

const RINGS = Symbol('rings');

/** A polygon's rings as two flat number arrays: `lon, lat, …` and where each ring ends (in positions). */
interface PackedRings {
  coords: number[];
  ends: number[];
}

type LeanPolygon = Geofence & { [RINGS]: PackedRings };
type PreparedLeanPolygon = Geofence & { [PREPARED_POLYGON]: PreparedPolygon };

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

function preparedPolygonGeometry(this: PreparedLeanPolygon): PolygonGeometry {
  const { coords, ringStart } = this[PREPARED_POLYGON];
  const rings: Position[][] = [];
  for (let r = 0; r + 1 < ringStart.length; r++) {
    const ring: Position[] = [];
    for (let i = ringStart[r]!; i < ringStart[r + 1]!; i++) ring.push([coords[2 * i]!, coords[2 * i + 1]!]);
    rings.push(ring);
  }
  return { type: 'Polygon', coordinates: rings };
}

/**
 * The fence as the in-memory indexes keep it: without its GeoJSON `geometry`, which detection never
 * reads (circles are tested from center and radius, polygons through their prepared flat form) but
 * which is most of a fence's memory, and millions of small arrays for the garbage collector to walk.
 * Circles redraw their 64-gon on read; polygons rebuild the GeoJSON on read from their prepared form
 * (`PREPARED_POLYGON`, which `prepareGeofence` then takes as it is), or, when preparing changed the
 * positions (a ring left open, or moved across the antimeridian), from two flat arrays of their own.
 * `geometry` reads, spreads and `JSON.stringify` see the same value as before.
 * The fences of a project share one project id string. A ring position with more than two numbers
 * keeps the fence as it is. (Built by a class constructor instead, a lean fence held all its fields
 * in the object, one object fewer each, but an indexed PUT cost 200 µs of server CPU instead of 160:
 * V8's worker threads then marked the old generation all through the row. A plain literal of every
 * field, `leanFields`, does the same for circles without a class; alternating PUT rows before and
 * after it, 2026-11-29 on a slow 2-core AMD VM, gave 211-215 against 179-234 µs saturated and
 * 240-251 against 247-263 with the fence index in memory: no order.)
 */
export function leanGeofence(g: Geofence): Geofence {
  const { geometry } = g;
  const rest = leanFields(g);
  if (g.type === 'circle') return withGeometry(rest, circleGeometry);
  const prepared = preparePolygon(geometry);
  if (samePositions(prepared, geometry)) {
    Object.defineProperty(rest, PREPARED_POLYGON, { value: prepared, enumerable: false });
    return withGeometry(rest, preparedPolygonGeometry);
  }
  const packed = pack(geometry);
  if (!packed) return g;
  Object.defineProperty(rest, RINGS, { value: packed, enumerable: false });
  return withGeometry(rest, polygonGeometry);
}

/** `fields` with `geometry` read through `get`, one of the shared getters above. */
function withGeometry(fields: Omit<Geofence, 'geometry'>, get: (this: never) => PolygonGeometry): Geofence {
  return Object.defineProperty(fields, 'geometry', { get, enumerable: true, configurable: true }) as Geofence;
}

/**
 * Every field but `geometry`, in one literal: the object then holds them all itself. Copied by a
 * rest spread, most went to a property array beside it, one more object per fence for every major
 * collection to mark. A field added to `Geofence` fails to compile here until it is copied too.
 */
function leanFields(g: Geofence): Omit<Geofence, 'geometry'> {
  return {
    id: g.id,
    projectId: sharedProjectId(g.projectId),
    live: g.live,
    tag: g.tag,
    externalId: g.externalId,
    description: g.description,
    type: g.type,
    geometryCenter: g.geometryCenter,
    geometryRadius: g.geometryRadius,
    mode: g.mode,
    metadata: g.metadata,
    userId: g.userId,
    enabled: g.enabled,
    disableAfter: g.disableAfter,
    deleteAfter: g.deleteAfter,
    stopDetection: g.stopDetection,
    dwellThreshold: g.dwellThreshold,
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
  };
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

/** Whether the prepared polygon holds exactly the given rings, position for position. */
function samePositions(p: PreparedPolygon, geometry: PolygonGeometry): boolean {
  const rings = geometry.coordinates;
  if (p.ringStart.length !== rings.length + 1) return false;
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r]!;
    const start = p.ringStart[r]!;
    if (p.ringStart[r + 1]! - start !== ring.length) return false;
    for (let i = 0; i < ring.length; i++) {
      const position = ring[i]!;
      if (
        position.length !== 2 ||
        position[0] !== p.coords[2 * (start + i)] ||
        position[1] !== p.coords[2 * (start + i) + 1]
      )
        return false;
    }
  }
  return true;
}
