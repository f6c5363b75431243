import { circleFencePolygon } from '../../geo/circle-polygon.js';
import { approximateRadiusMeters, ringCentroid } from '../../geo/ring-centroid.js';
import type { PolygonGeometry, Position, Ring } from '../../geo/types.js';
import { validatePolygon } from '../../geo/validate-polygon.js';
import { invalid, invalidParam, missingParam } from '../errors.js';
import type { GeofenceType, TravelMode } from './geofence.js';
import type { IsochroneBuilder } from './isochrone-builder.js';

export interface GeofenceShape {
  geometry: PolygonGeometry;
  geometryCenter: Position;
  geometryRadius: number;
}

export const CIRCLE_RADIUS_METERS = { min: 10, max: 10_000 } as const;
/** Isochrone fences: `radius` is minutes of travel to the destination. */
export const ISOCHRONE_MINUTES = { min: 1, max: 60 } as const;

/**
 * Builds the stored shape of a fence from the request's `coordinates` (already JSON-decoded) and
 * `radius`. Circles keep their exact center and radius (events use those) plus a 64-gon to draw;
 * polygons accept the ring itself or GeoJSON Polygon coordinates (outer ring, then holes).
 */
export function buildGeofenceShape(
  type: GeofenceType,
  coordinates: unknown,
  radius: number | undefined,
  isochrone?: { mode: TravelMode | undefined; builder: IsochroneBuilder | undefined },
): GeofenceShape {
  if (type === 'isochrone') {
    const builder = isochrone?.builder;
    if (!builder) throw invalid('type', 'type isochrone needs road routing, which this server lacks.');
    const destination = readPosition(coordinates, 'an isochrone');
    if (radius === undefined) throw missingParam('radius');
    if (radius < ISOCHRONE_MINUTES.min || radius > ISOCHRONE_MINUTES.max) {
      throw invalidParam(
        'radius',
        `must be a number between ${ISOCHRONE_MINUTES.min} and ${ISOCHRONE_MINUTES.max} (minutes of travel) for an isochrone.`,
      );
    }
    const ring = builder.ring(destination, radius, isochrone.mode ?? 'car');
    // geometryRadius holds the minutes for isochrones (see Geofence).
    return { geometry: { type: 'Polygon', coordinates: [ring] }, geometryCenter: destination, geometryRadius: radius };
  }
  if (type === 'circle') {
    const center = readPosition(coordinates, 'a circle');
    if (radius === undefined) throw missingParam('radius');
    if (radius < CIRCLE_RADIUS_METERS.min || radius > CIRCLE_RADIUS_METERS.max) {
      throw invalidParam(
        'radius',
        `must be a number between ${CIRCLE_RADIUS_METERS.min} and ${CIRCLE_RADIUS_METERS.max} (meters) for a circle.`,
      );
    }
    return { geometry: circleFencePolygon(center, radius), geometryCenter: center, geometryRadius: radius };
  }
  const rings = readRings(coordinates);
  const center = ringCentroid(rings[0]!);
  return {
    geometry: { type: 'Polygon', coordinates: rings },
    geometryCenter: center,
    geometryRadius: Math.round(approximateRadiusMeters(rings[0]!, center)),
  };
}

function readPosition(coordinates: unknown, kind: string): Position {
  const c = coordinates as unknown[];
  const what = kind === 'a circle' ? 'the center' : 'the destination';
  const rule = `must be ${what} as [longitude,latitude] for ${kind}, longitude -180 to 180 and latitude -90 to 90.`;
  if (!Array.isArray(c) || c.length < 2 || c.length > 3 || typeof c[0] !== 'number' || typeof c[1] !== 'number') {
    throw invalidParam('coordinates', rule);
  }
  const [lon, lat] = c as [number, number];
  if (!Number.isFinite(lon) || !Number.isFinite(lat) || lon < -180 || lon > 180 || lat < -90 || lat > 90) {
    throw invalidParam('coordinates', rule);
  }
  return [lon, lat];
}

function readRings(coordinates: unknown): Ring[] {
  if (!Array.isArray(coordinates) || coordinates.length === 0) {
    throw invalidParam('coordinates', 'must be a closed ring of [longitude,latitude] positions for a polygon.');
  }
  // A ring is an array of positions; GeoJSON Polygon coordinates are an array of rings.
  const wrapped = Array.isArray(coordinates[0]) && Array.isArray((coordinates[0] as unknown[])[0]);
  const candidates = wrapped ? (coordinates as unknown[]) : [coordinates];
  const result = validatePolygon(candidates);
  if (!result.ok) throw invalidParam('coordinates', `${result.reason}.`);
  return result.rings;
}
