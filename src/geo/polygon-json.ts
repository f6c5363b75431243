import { setBounded } from '../cache/bounded-map.js';
import type { PolygonGeometry } from './types.js';

/** How many recent polygons keep their text: enough for one group commit's worth of fence writes. */
const RECENT = 256;
const recent = new Map<PolygonGeometry, string>();

/**
 * `JSON.stringify(polygon)`, remembered for the most recent polygons. A fence's outline is written twice
 * right after it is built (into the stored document and into the response), and printing its 130-odd
 * doubles costs more than everything else in either. Polygons are never changed once built, so the
 * text cannot go stale; only the last few are kept, so stored fences are not held twice in memory.
 */
export function polygonJson(polygon: PolygonGeometry): string {
  let json = recent.get(polygon);
  if (json === undefined) {
    json = JSON.stringify(polygon);
    setBounded(recent, polygon, json, RECENT);
  }
  return json;
}
