import Flatbush from 'flatbush';
import { edgeBoxIndex } from '../geo/edge-box-index.js';
import type { BBox } from '../geo/types.js';
import type { PolygonSet } from './polygon-file.js';

// Parts with more vertices than this get their own edge index: a ray cast then touches only the edges
// near the query latitude instead of every edge of a 50,000-vertex coastline.
const EDGE_INDEX_MIN_VERTICES = 256;

/**
 * Point-in-polygon lookup over one layer of the pack (countries, states, counties, DMAs, ZCTAs …).
 * An R-tree over part bounding boxes picks candidates; an even-odd ray cast over all rings of a part decides,
 * so holes work. A point exactly on a shared border may be reported in either neighbour.
 */
export class PolygonLayer {
  readonly set: PolygonSet;
  readonly featureCount: number;
  private readonly partIndex: Flatbush | null;
  private readonly partBoxes: Float64Array;
  private readonly edgeIndexes = new Map<number, { index: Flatbush; edges: Uint32Array }>();
  /** True when some vertices lie east of 180° (us-atlas draws the Aleutians that way). */
  private readonly wrapsEast: boolean;

  constructor(set: PolygonSet, featureCount: number) {
    this.set = set;
    this.featureCount = featureCount;
    const parts = set.partFeature.length;
    this.partBoxes = new Float64Array(parts * 4);
    let maxLon = Number.NEGATIVE_INFINITY;
    this.partIndex = parts > 0 ? new Flatbush(parts) : null;
    for (let part = 0; part < parts; part++) {
      const box = this.computePartBox(part);
      this.partBoxes.set(box, part * 4);
      maxLon = Math.max(maxLon, box[2]);
      this.partIndex?.add(box[0], box[1], box[2], box[3]);
      const vertices = this.partVertexCount(part);
      if (vertices > EDGE_INDEX_MIN_VERTICES) this.edgeIndexes.set(part, this.buildEdgeIndex(part, vertices));
    }
    this.partIndex?.finish();
    this.wrapsEast = maxLon > 180;
  }

  /**
   * The index of the first feature whose polygon contains the point, or -1.
   * @param lon longitude in degrees, -180..180
   * @param lat latitude in degrees
   */
  find(lon: number, lat: number): number {
    const hit = this.findAt(lon, lat);
    if (hit >= 0 || !this.wrapsEast || lon >= 0) return hit;
    return this.findAt(lon + 360, lat);
  }

  private findAt(lon: number, lat: number): number {
    if (!this.partIndex) return -1;
    const candidates = this.partIndex.search(lon, lat, lon, lat);
    // Smaller parts first, so an enclave (Vatican, Lesotho) wins over the part whose hole it fills.
    if (candidates.length > 1) candidates.sort((a, b) => this.boxArea(a) - this.boxArea(b));
    for (const part of candidates) {
      if (this.partContains(part, lon, lat)) return this.set.partFeature[part] ?? -1;
    }
    return -1;
  }

  private partContains(part: number, x: number, y: number): boolean {
    const { coords } = this.set;
    const edgeIndex = this.edgeIndexes.get(part);
    let inside = false;
    if (edgeIndex) {
      const maxX = this.partBoxes[part * 4 + 2]!;
      for (const e of edgeIndex.index.search(x, y, maxX, y)) {
        const i = edgeIndex.edges[e]!;
        if (crosses(coords, i, x, y)) inside = !inside;
      }
      return inside;
    }
    const { ringStart, partRingStart } = this.set;
    for (let ring = partRingStart[part]!; ring < partRingStart[part + 1]!; ring++) {
      for (let i = ringStart[ring]!; i < ringStart[ring + 1]! - 1; i++) {
        if (crosses(coords, i, x, y)) inside = !inside;
      }
    }
    return inside;
  }

  private partVertexCount(part: number): number {
    const { ringStart, partRingStart } = this.set;
    return ringStart[partRingStart[part + 1]!]! - ringStart[partRingStart[part]!]!;
  }

  private computePartBox(part: number): BBox {
    const { coords, ringStart, partRingStart } = this.set;
    const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
    // The outer ring bounds the part; holes lie inside it.
    const ring = partRingStart[part]!;
    for (let i = ringStart[ring]!; i < ringStart[ring + 1]!; i++) {
      const x = coords[2 * i]!;
      const y = coords[2 * i + 1]!;
      if (x < box[0]) box[0] = x;
      if (y < box[1]) box[1] = y;
      if (x > box[2]) box[2] = x;
      if (y > box[3]) box[3] = y;
    }
    return box;
  }

  private boxArea(part: number): number {
    const b = this.partBoxes;
    return (b[part * 4 + 2]! - b[part * 4]!) * (b[part * 4 + 3]! - b[part * 4 + 1]!);
  }

  private buildEdgeIndex(part: number, vertices: number): { index: Flatbush; edges: Uint32Array } {
    const { ringStart, partRingStart } = this.set;
    const edges = new Uint32Array(vertices);
    let n = 0;
    for (let ring = partRingStart[part]!; ring < partRingStart[part + 1]!; ring++) {
      for (let i = ringStart[ring]!; i < ringStart[ring + 1]! - 1; i++) edges[n++] = i;
    }
    const used = edges.subarray(0, n);
    return { index: edgeBoxIndex(this.set.coords, used), edges: used };
  }
}

/** Whether the edge from vertex i to vertex i+1 crosses the ray from (x, y) towards +x (PNPOLY rule). */
function crosses(coords: Float64Array, i: number, x: number, y: number): boolean {
  const xi = coords[2 * i]!;
  const yi = coords[2 * i + 1]!;
  const xj = coords[2 * i + 2]!;
  const yj = coords[2 * i + 3]!;
  return yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi;
}
