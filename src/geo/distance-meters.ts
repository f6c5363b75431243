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
  const lat1 = a[1] * RAD;
  const lat2 = b[1] * RAD;
  const sinHalfDLat = Math.sin((lat2 - lat1) / 2);
  const sinHalfDLon = Math.sin(((b[0] - a[0]) * RAD) / 2);
  const h = sinHalfDLat * sinHalfDLat + Math.cos(lat1) * Math.cos(lat2) * sinHalfDLon * sinHalfDLon;
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
  const lat1 = origin[1] * RAD;
  const bearing = bearingDegrees * RAD;
  const angle = distanceMeters / EARTH_RADIUS_METERS;
  const sinLat1 = Math.sin(lat1);
  const cosLat1 = Math.cos(lat1);
  const sinAngle = Math.sin(angle);
  const cosAngle = Math.cos(angle);
  const sinLat2 = sinLat1 * cosAngle + cosLat1 * sinAngle * Math.cos(bearing);
  const lat2 = Math.asin(Math.max(-1, Math.min(1, sinLat2)));
  // The textbook denominator (cos δ − sin φ1 sin φ2) divided through by cos φ1: same angle, but no
  // cancellation near the poles, where the textbook form turns to noise.
  const dLon = Math.atan2(Math.sin(bearing) * sinAngle, cosAngle * cosLat1 - sinLat1 * sinAngle * Math.cos(bearing));
  return [normalizeLongitude(origin[0] + dLon / RAD), lat2 / RAD];
}
