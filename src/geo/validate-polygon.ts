import Flatbush from 'flatbush';
import { findRingContact } from './find-self-intersection.js';
import { preparePolygon } from './prepare-polygon.js';
import type { Ring } from './types.js';
import { MAX_RING_POSITIONS, validateRing } from './validate-ring.js';

/** Most positions in all the rings of one polygon together (the spec's limit for a polygon fence). */
export const MAX_POLYGON_POSITIONS = MAX_RING_POSITIONS;

/** The outcome of `validatePolygon`: the cleaned rings, or a reason to show after the field's name. */
export type PolygonValidation = { ok: true; rings: Ring[] } | { ok: false; reason: string };

/**
 * Checks untrusted rings (outer ring first, then holes) as one polygon: each ring as `validateRing`
 * does, at most `MAX_POLYGON_POSITIONS` positions in all of them together, and the holes inside the
 * outer ring, outside each other, and touching neither it nor each other (not even at one point:
 * stricter than OGC's simple features, and no fence needs it). A hole outside its outer ring used to
 * be taken, and a point in it was then inside the fence by the even-odd rule.
 *
 * Rings are compared as `preparePolygon` lays them out (each hole beside the outer ring across the
 * antimeridian), the layout containment tests read. O(n log n) for n positions.
 */
export function validatePolygon(candidates: readonly unknown[]): PolygonValidation {
  let total = 0;
  for (const raw of candidates) total += Array.isArray(raw) ? raw.length : 0;
  if (total > MAX_POLYGON_POSITIONS) {
    return fail(`must have at most ${MAX_POLYGON_POSITIONS} positions in all its rings together (it has ${total})`);
  }
  const rings: Ring[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const result = validateRing(candidates[i]);
    if (!result.ok) return fail(`${i === 0 ? '' : `ring ${i} `}${result.reason}`.trim());
    rings.push(result.ring);
  }
  if (rings.length < 2) return { ok: true, rings };
  const { coords, ringStart } = preparePolygon({ type: 'Polygon', coordinates: rings });
  const contact = findRingContact(coords, ringStart);
  if (contact !== null) {
    const { firstRing: a, first, secondRing: b, second, kind } = contact;
    if (a === b) return fail(`ring ${a} must not intersect itself (edges ${first} and ${second} ${kind})`);
    return fail(
      a === 0
        ? `ring ${b} (a hole) must not touch or cross the outer ring (its edge ${second} and edge ${first} of ring 0 ${kind})`
        : `rings ${a} and ${b} (holes) must not touch or cross each other (edges ${first} and ${second} ${kind})`,
    );
  }
  // No two rings meet, so each hole lies wholly inside or outside any other ring: one vertex tells.
  const holes = rings.length - 1;
  for (let r = 1; r <= holes; r++) {
    const at = ringStart[r]!;
    if (!inRing(coords, ringStart[0]!, ringStart[1]!, coords[2 * at]!, coords[2 * at + 1]!)) {
      return fail(`ring ${r} (a hole) must lie inside the outer ring (ring 0)`);
    }
  }
  // A hole in a hole would be inside the fence again by the even-odd rule; boxes find the candidates.
  const boxes = new Flatbush(holes);
  for (let r = 1; r <= holes; r++) {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = ringStart[r]!; i < ringStart[r + 1]!; i++) {
      minX = Math.min(minX, coords[2 * i]!);
      maxX = Math.max(maxX, coords[2 * i]!);
      minY = Math.min(minY, coords[2 * i + 1]!);
      maxY = Math.max(maxY, coords[2 * i + 1]!);
    }
    boxes.add(minX, minY, maxX, maxY);
  }
  boxes.finish();
  for (let r = 1; r <= holes; r++) {
    const x = coords[2 * ringStart[r]!]!;
    const y = coords[2 * ringStart[r]! + 1]!;
    for (const k of boxes.search(x, y, x, y)) {
      const q = k + 1;
      if (q !== r && inRing(coords, ringStart[q]!, ringStart[q + 1]!, x, y)) {
        return fail(`ring ${r} (a hole) must not lie inside ring ${q}, another hole`);
      }
    }
  }
  return { ok: true, rings };
}

function fail(reason: string): PolygonValidation {
  return { ok: false, reason };
}

/** Even-odd test of (x, y) against the closed ring at positions `start` to `end - 1` of `coords`. */
function inRing(coords: Float64Array, start: number, end: number, x: number, y: number): boolean {
  let inside = false;
  for (let i = start; i + 1 < end; i++) {
    const x1 = coords[2 * i]!;
    const y1 = coords[2 * i + 1]!;
    const x2 = coords[2 * i + 2]!;
    const y2 = coords[2 * i + 3]!;
    if (y1 > y !== y2 > y && x < x1 + ((y - y1) * (x2 - x1)) / (y2 - y1)) inside = !inside;
  }
  return inside;
}
