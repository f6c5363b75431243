import type { Position } from './types.js';

/** Mean Earth radius (IUGG) in meters; every distance in this module is on a sphere of this radius. */
export const EARTH_RADIUS_METERS = 6371008.8;

/** Meters along a meridian per degree of latitude (and along the equator per degree of longitude). */
export const METERS_PER_DEGREE = (EARTH_RADIUS_METERS * Math.PI) / 180;

const RAD = Math.PI / 180;

/**
 * Wraps a longitude in degrees into [-180, 180].
 *
 * Values already in range come back unchanged, so both -180 and 180 survive (they name the same
 * meridian); a value outside the range that lands on the antimeridian becomes 180 if it was positive
 * (540 -> 180) and -180 if negative (-540 -> -180). NaN stays NaN.
 */
export function normalizeLongitude(lon: number): number {
  if (lon >= -180 && lon <= 180) return lon;
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 && lon > 0 ? 180 : wrapped;
}

/**
 * Great-circle (haversine) distance in meters between two `[lon, lat]` positions in degrees.
 *
 * Antimeridian-safe (179.9 and -179.9 are about 22 km apart at the equator) and exact at the poles,
 * where every longitude names the same point. Symmetric; 0 for equal positions. Allocation-free.
 */
export function distanceMeters(a: Position, b: Position): number {
  return distanceMetersLonLat(a[0], a[1], b[0], b[1]);
}

/** `distanceMeters` from numbers (degrees), for loops over flat coordinate arrays. */
export function distanceMetersLonLat(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const a = lat1 * RAD;
  const b = lat2 * RAD;
  const sinHalfDLat = Math.sin((b - a) / 2);
  const sinHalfDLon = Math.sin(((lon2 - lon1) * RAD) / 2);
  const h = sinHalfDLat * sinHalfDLat + Math.cos(a) * Math.cos(b) * sinHalfDLon * sinHalfDLon;
  // Rounding can push h a hair above 1 for antipodal points, where asin would give NaN.
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.sqrt(Math.min(1, h)));
}

/**
 * The `[lon, lat]` position in degrees reached by travelling `distanceMeters` from `origin` along
 * the great circle that starts at `bearingDegrees` (clockwise from true north).
 *
 * The returned longitude is normalised to [-180, 180] and the latitude is within [-90, 90]. A
 * negative distance travels the opposite way. From exactly a pole, bearing θ follows the meridian
 * `origin lon + 180 - θ` (north pole) or `origin lon + θ` (south pole), the usual limit of the formula.
 */
export function destinationPoint(origin: Position, bearingDegrees: number, distanceMeters: number): Position {
  return destinationAt(destinationBasis(origin, distanceMeters), bearingDegrees);
}

/** The part of `destinationPoint` that depends only on the origin and distance, for many bearings. */
export interface DestinationBasis {
  lon: number;
  sinLat1: number;
  cosLat1: number;
  sinAngle: number;
  cosAngle: number;
}

export function destinationBasis(origin: Position, distanceMeters: number): DestinationBasis {
  const lat1 = origin[1] * RAD;
  const angle = distanceMeters / EARTH_RADIUS_METERS;
  return {
    lon: origin[0],
    sinLat1: Math.sin(lat1),
    cosLat1: Math.cos(lat1),
    sinAngle: Math.sin(angle),
    cosAngle: Math.cos(angle),
  };
}

/** `destinationPoint(origin, bearingDegrees, distance)` for the basis of that origin and distance. */
export function destinationAt(b: DestinationBasis, bearingDegrees: number): Position {
  const bearing = bearingDegrees * RAD;
  return destinationAtBearing(b, Math.cos(bearing), Math.sin(bearing));
}

/**
 * `destinationAt` for a bearing given by its cosine and sine (of the bearing in radians), for callers
 * that walk the same bearings around many origins (circle outlines) and keep them in a table.
 */
export function destinationAtBearing(b: DestinationBasis, cosBearing: number, sinBearing: number): Position {
  const sinLat2 = b.sinLat1 * b.cosAngle + b.cosLat1 * b.sinAngle * cosBearing;
  const lat2 = Math.asin(Math.max(-1, Math.min(1, sinLat2)));
  // The textbook denominator (cos δ − sin φ1 sin φ2) divided through by cos φ1: same angle, but no
  // cancellation near the poles, where the textbook form turns to noise.
  const dLon = Math.atan2(sinBearing * b.sinAngle, b.cosAngle * b.cosLat1 - b.sinLat1 * b.sinAngle * cosBearing);
  return [normalizeLongitude(b.lon + dLon / RAD), lat2 / RAD];
}
