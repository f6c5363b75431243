import type Flatbush from 'flatbush';
import { METERS_PER_DEGREE } from '../geo/distance-meters.js';
import { edgeBoxIndex } from '../geo/edge-box-index.js';
import { segmentDistanceSquared } from '../geo/segment-distance.js';
import type { PolygonSet } from './polygon-file.js';

const RAD = Math.PI / 180;
/** Search radii tried in turn (meters): most points asked about are near a border, a few far inland. */
const RADII = [2_000, 20_000, 200_000, 2_000_000];

/** The point measured from, and the meters per degree east and north around it. */
interface Around {
  lon: number;
  lat: number;
  kx: number;
  ky: number;
}

/** The ring edges of one feature: an R-tree over them, and the vertex each starts at (it ends at the next). */
interface FeatureEdges {
  index: Flatbush;
  start: Uint32Array;
}

/**
 * Distance from a point to the border of one feature of a polygon layer (`state.distanceToBorder`):
 * an R-tree over the feature's ring edges, so a query reads the few edges around the point instead of
 * every vertex of a coastline. Each feature's tree is built the first time it is asked about and kept:
 * a whole world layer's would take a second to build (admin-1: 1.2 s on the bench machine), one state's
 * takes milliseconds, and only the places an app's users are in are ever asked about. Distances use a
 * local equirectangular projection centred on the point, exact to well under 1% within tens of km.
 */
export class BorderIndex {
  readonly #features = new Map<number, FeatureEdges | null>();

  constructor(private readonly set: PolygonSet) {}

  /** Meters from `[lon, lat]` to the nearest edge of `feature`'s rings; Infinity when none is within 2,000 km. */
  distance(feature: number, lon: number, lat: number): number {
    let edges = this.#features.get(feature);
    if (edges === undefined) {
      edges = this.#build(feature);
      this.#features.set(feature, edges);
    }
    if (edges === null) return Number.POSITIVE_INFINITY;
    const at: Around = { lon, lat, kx: METERS_PER_DEGREE * Math.max(Math.cos(lat * RAD), 0.01), ky: METERS_PER_DEGREE };
    // An edge found within the radius is the nearest: every nearer edge's box meets the search box.
    for (const radius of RADII) {
      const best = this.#nearestWithin(edges, at, radius);
      if (best <= radius * radius) return Math.sqrt(best);
    }
    return Number.POSITIVE_INFINITY;
  }

  /**
   * Squared meters to the nearest edge whose box meets the box of `radius` around the point; Infinity
   * for none. Measured as the tree finds them, not gathered into a list: a far point's box holds
   * thousands of edges.
   */
  #nearestWithin(edges: FeatureEdges, at: Around, radius: number): number {
    let best = Number.POSITIVE_INFINITY;
    edges.index.search(
      at.lon - radius / at.kx,
      at.lat - radius / at.ky,
      at.lon + radius / at.kx,
      at.lat + radius / at.ky,
      (e) => {
        const d2 = this.#meters2(edges.start[e]!, at);
        if (d2 < best) best = d2;
        return false;
      },
    );
    return best;
  }

  /** Squared meters from the point to the edge starting at vertex `i`, projected around the point. */
  #meters2(i: number, { lon, lat, kx, ky }: Around): number {
    const c = this.set.coords;
    const ax = (c[2 * i]! - lon) * kx;
    const ay = (c[2 * i + 1]! - lat) * ky;
    return segmentDistanceSquared(ax, ay, (c[2 * i + 2]! - lon) * kx, (c[2 * i + 3]! - lat) * ky);
  }

  #build(feature: number): FeatureEdges | null {
    const { coords, ringStart, partRingStart, partFeature } = this.set;
    const starts: number[] = [];
    for (let part = 0; part < partFeature.length; part++) {
      if (partFeature[part] !== feature) continue;
      for (let r = partRingStart[part]!; r < partRingStart[part + 1]!; r++) {
        for (let i = ringStart[r]!; i < ringStart[r + 1]! - 1; i++) starts.push(i);
      }
    }
    if (starts.length === 0) return null;
    const start = Uint32Array.from(starts);
    return { index: edgeBoxIndex(coords, start), start };
  }
}

/** Which feature of which layer a region answer came from, so its border distance uses that geometry. */
export interface BorderRef {
  layer: BorderIndex;
  feature: number;
}

/** Meters from `[lon, lat]` to the border of the area `ref` names. */
export function borderDistanceMeters(ref: BorderRef, lon: number, lat: number): number {
  return ref.layer.distance(ref.feature, lon, lat);
}
