import { ringContains } from '../../../geo/ring-contains.js';
import type { Position } from '../../../geo/types.js';
import type { OsmFile, OsmWay } from '../osm-file.js';
import { assembleRings, polygonsOf, signedArea } from './assemble-rings.js';

/** Land as closed coastline rings draw it: islands (counter-clockwise, land on the left) with their lagoons. */
export interface LandRings {
  polygons: Position[][][];
}

/**
 * The extract's land where its coastline closes into rings (an island such as Oʻahu); null when the
 * extract has no coastline or a coast that runs off its edge (a mainland extract), which then keeps
 * the areas as drawn.
 */
export function landRingsOf(osm: OsmFile, coastline: readonly OsmWay[]): LandRings | null {
  if (coastline.length === 0) return null;
  const rings = assembleRings(osm, coastline);
  if (!rings || rings.length === 0) return null;
  const outers = rings.filter((r) => signedArea(r) > 0).sort((a, b) => signedArea(b) - signedArea(a));
  const inners = rings.filter((r) => signedArea(r) < 0);
  return { polygons: polygonsOf(outers, inners) };
}

/**
 * An area trimmed to the land: the land polygons that lie wholly inside it. When some land polygon
 * straddles the area's border (an inland border crossing an island) the area is kept as drawn, since
 * cutting polygons is not needed for the extracts seen so far and a partial trim would be wrong.
 */
export function trimToLand(area: Position[][][], land: LandRings): Position[][][] {
  const inside: Position[][][] = [];
  for (const polygon of land.polygons) {
    const outer = polygon[0]!;
    let hits = 0;
    for (const [lon, lat] of outer) if (areaContains(area, lon, lat)) hits++;
    if (hits === outer.length) inside.push(polygon);
    else if (hits > 0) return area;
  }
  return inside.length > 0 ? inside : area;
}

function areaContains(area: Position[][][], lon: number, lat: number): boolean {
  for (const polygon of area) {
    let inside = false;
    for (const ring of polygon) if (ringContains(ring, lon, lat)) inside = !inside;
    if (inside) return true;
  }
  return false;
}
