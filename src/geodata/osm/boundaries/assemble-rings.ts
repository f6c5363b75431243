import { ringContains } from '../../../geo/ring-contains.js';
import type { Position } from '../../../geo/types.js';
import type { OsmFile, OsmWay } from '../osm-file.js';

/**
 * Joins ways end to end into closed rings, as OSM draws multipolygon relations and coastlines: a
 * ring may run through any number of ways, each either way round. Returns null when some way cannot
 * be closed into a ring (a relation or coast clipped by the extract) or names a node the file lacks:
 * an area is kept whole or not at all.
 */
export function assembleRings(osm: OsmFile, ways: readonly OsmWay[]): Position[][] | null {
  const pending = new Set<number>();
  const byEnd = new Map<number, number[]>();
  ways.forEach((way, i) => {
    if (way.refs.length < 2) return;
    pending.add(i);
    for (const id of [way.refs[0]!, way.refs[way.refs.length - 1]!]) {
      const list = byEnd.get(id);
      if (list) list.push(i);
      else byEnd.set(id, [i]);
    }
  });
  const rings: Position[][] = [];
  for (const first of ways.keys()) {
    if (!pending.has(first)) continue;
    pending.delete(first);
    const ids = [...ways[first]!.refs];
    while (ids[0] !== ids[ids.length - 1]) {
      const end = ids[ids.length - 1]!;
      const next = byEnd.get(end)?.find((i) => pending.has(i));
      if (next === undefined) return null;
      pending.delete(next);
      const refs = ways[next]!.refs;
      const forward = refs[0] === end ? refs : [...refs].reverse();
      for (let k = 1; k < forward.length; k++) ids.push(forward[k]!);
    }
    if (ids.length < 4) continue;
    const ring: Position[] = [];
    for (const id of ids) {
      const i = osm.nodeIndex(id);
      if (i < 0) return null;
      ring.push(osm.position(id)!);
    }
    rings.push(ring);
  }
  return rings;
}

/** Twice the signed area in degrees² (positive when counter-clockwise). */
export function signedArea(ring: readonly Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  }
  return sum;
}

/** Groups outer rings with the inner rings that lie in them: MultiPolygon coordinates. */
export function polygonsOf(outers: Position[][], inners: Position[][]): Position[][][] {
  const polygons = outers.map((o) => [o]);
  for (const inner of inners) {
    const [lon, lat] = inner[0]!;
    polygons.find((p) => ringContains(p[0]!, lon, lat))?.push(inner);
  }
  return polygons;
}
