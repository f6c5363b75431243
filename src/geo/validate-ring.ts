import { findSelfIntersection } from './find-self-intersection.js';
import type { Position, Ring } from './types.js';

/** Fewest positions of a ring: a triangle plus the closing repeat of its first position. */
export const MIN_RING_POSITIONS = 4;
/** Most positions accepted, so one fence cannot make every containment test slow. */
export const MAX_RING_POSITIONS = 10_000;

/** The outcome of `validateRing`: the cleaned ring, or a reason to show after the field's name. */
export type RingValidation = { ok: true; ring: Ring } | { ok: false; reason: string };

const PAIRS = 'must be an array of [longitude,latitude] pairs';

/**
 * Checks untrusted input (e.g. a request body) as one linear ring of `[longitude, latitude]` pairs
 * in degrees, an optional third altitude number being allowed and dropped.
 *
 * On success returns the ring as given minus altitudes (not unwrapped, not reoriented; either
 * winding order is accepted). On failure returns a short reason meant to follow the caller's own
 * name for the field, e.g. "must be closed (the first position must equal the last)". Positions
 * and edges in reasons are 0-based indexes into the input; edge `e` joins positions `e` and `e+1`.
 *
 * Accepts: 4 to 10,000 positions; longitudes in [-180, 180] and latitudes in [-90, 90], bounds
 * included; first position exactly equal to the last; at least 3 distinct positions; consecutive
 * duplicates; rings over the antimeridian (a longitude step over 180°, such as 179 -> -179, is taken
 * the short way round). Rejects: rings that wind around a pole (ambiguous in lon/lat) and rings
 * that meet themselves, as `findSelfIntersection` defines it (adjacent edges may share their vertex;
 * anything else, including a vertex on another edge or collinear overlap, is rejected).
 */
export function validateRing(input: unknown): RingValidation {
  if (!Array.isArray(input)) return fail(PAIRS);
  if (input.length < MIN_RING_POSITIONS || input.length > MAX_RING_POSITIONS) {
    return fail(`must have between ${MIN_RING_POSITIONS} and ${MAX_RING_POSITIONS} positions`);
  }
  const ring: Ring = [];
  for (let i = 0; i < input.length; i++) {
    const position: unknown = input[i];
    if (!isPosition(position)) return fail(`${PAIRS} (position ${i} is not)`);
    const lon = position[0];
    const lat = position[1];
    if (lon < -180 || lon > 180) {
      return fail(`has a longitude out of range at position ${i} (must be between -180 and 180)`);
    }
    if (lat < -90 || lat > 90) return fail(`has a latitude out of range at position ${i} (must be between -90 and 90)`);
    ring.push([lon, lat]);
  }
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  if (first[0] !== last[0] || first[1] !== last[1])
    return fail('must be closed (the first position must equal the last)');
  if (!hasThreeDistinct(ring)) return fail('must have at least 3 distinct positions');
  if (lonWinding(ring) !== 0) {
    return fail('must not go around a pole (its longitudes wind through 360 degrees)');
  }
  const crossing = findSelfIntersection(ring);
  if (crossing !== null) {
    return fail(`must not intersect itself (edges ${crossing.first} and ${crossing.second} ${crossing.kind})`);
  }
  return { ok: true, ring };
}

function fail(reason: string): RingValidation {
  return { ok: false, reason };
}

function isPosition(value: unknown): value is [number, number, ...number[]] {
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) return false;
  for (let i = 0; i < value.length; i++) {
    const n: unknown = value[i];
    if (typeof n !== 'number' || !Number.isFinite(n)) return false;
  }
  return true;
}

/** Stops at the third distinct position rather than hashing the whole ring. */
function hasThreeDistinct(ring: Ring): boolean {
  const a = ring[0]!;
  let b: Position | undefined;
  for (const p of ring) {
    if (p[0] === a[0] && p[1] === a[1]) continue;
    if (b === undefined) b = p;
    else if (p[0] !== b[0] || p[1] !== b[1]) return true;
  }
  return false;
}

/** Net number of turns around the Earth, taking each longitude step the short way as `unwrapRing` does. */
function lonWinding(ring: Ring): number {
  let turns = 0;
  for (let i = 1; i < ring.length; i++) turns += Math.round((ring[i]![0] - ring[i - 1]![0]) / 360);
  return turns;
}
