import Flatbush from 'flatbush';
import { METERS_PER_DEGREE } from '../geo/distance-meters.js';
import type { PolygonSet } from './polygon-file.js';

const RAD = Math.PI / 180;
/** Search radii tried in turn (meters): most points asked about are near a border, a few far inland. */
const RADII = [2_000, 20_000, 200_000, 2_000_000];

/**
 * Distance from a point to the border of one feature of a polygon layer (`state.distanceToBorder`):
 * an R-tree over every ring edge of the layer, built once per layer, so a query reads the few edges
 * around the point instead of every vertex of a coastline. Distances use a local equirectangular
 * projection centred on the point, exact to well under 1% within tens of kilometres.
 */
export class BorderIndex {
  private readonly index: Flatbush | null;
  /** For edge `e`: the vertex it starts at (it ends at the next one) and the feature it bounds. */
  private readonly edgeStart: Uint32Array;
  private readonly edgeFeature: Uint32Array;

  constructor(private readonly set: PolygonSet) {
    const { coords, ringStart, partRingStart, partFeature } = set;
    let edges = 0;
    for (let r = 0; r + 1 < ringStart.length; r++) edges += Math.max(0, ringStart[r + 1]! - ringStart[r]! - 1);
    this.edgeStart = new Uint32Array(edges);
    this.edgeFeature = new Uint32Array(edges);
    this.index = edges > 0 ? new Flatbush(edges) : null;
    let e = 0;
    for (let part = 0; part < partFeature.length; part++) {
      const feature = partFeature[part]!;
      for (let r = partRingStart[part]!; r < partRingStart[part + 1]!; r++) {
        for (let i = ringStart[r]!; i < ringStart[r + 1]! - 1; i++) {
          const ax = coords[2 * i]!;
          const ay = coords[2 * i + 1]!;
          const bx = coords[2 * i + 2]!;
          const by = coords[2 * i + 3]!;
          this.index!.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
          this.edgeStart[e] = i;
          this.edgeFeature[e] = feature;
          e++;
        }
      }
    }
    this.index?.finish();
  }

  /** Meters from `[lon, lat]` to the nearest edge of `feature`'s rings; Infinity when none is within 2,000 km. */
  distance(feature: number, lon: number, lat: number): number {
    if (!this.index) return Number.POSITIVE_INFINITY;
    const c = this.set.coords;
    const kx = METERS_PER_DEGREE * Math.max(Math.cos(lat * RAD), 0.01);
    const ky = METERS_PER_DEGREE;
    for (const radius of RADII) {
      const dLat = radius / ky;
      const dLon = radius / kx;
      let best = Number.POSITIVE_INFINITY;
      for (const e of this.index.search(lon - dLon, lat - dLat, lon + dLon, lat + dLat)) {
        if (this.edgeFeature[e] !== feature) continue;
        const i = this.edgeStart[e]!;
        const ax = (c[2 * i]! - lon) * kx;
        const ay = (c[2 * i + 1]! - lat) * ky;
        const ex = (c[2 * i + 2]! - lon) * kx - ax;
        const ey = (c[2 * i + 3]! - lat) * ky - ay;
        const length2 = ex * ex + ey * ey;
        let t = length2 > 0 ? -(ax * ex + ay * ey) / length2 : 0;
        if (t < 0) t = 0;
        else if (t > 1) t = 1;
        const dx = ax + t * ex;
        const dy = ay + t * ey;
        const d2 = dx * dx + dy * dy;
        if (d2 < best) best = d2;
      }
      // An edge found within the radius is the nearest: every closer edge's box meets the search box.
      if (best <= radius * radius) return Math.sqrt(best);
    }
    return Number.POSITIVE_INFINITY;
  }
}

/** A layer's border index, built on first use (a world layer's is only needed once jurisdiction lists are set). */
export class LazyBorderIndex {
  #index: BorderIndex | undefined;
  constructor(private readonly set: PolygonSet) {}
  get(): BorderIndex {
    this.#index ??= new BorderIndex(this.set);
    return this.#index;
  }
}

/** Which feature of which layer a region answer came from, so its border distance uses that geometry. */
export interface BorderRef {
  layer: { get(): BorderIndex };
  feature: number;
}

/** Meters from `[lon, lat]` to the border of the area `ref` names. */
export function borderDistanceMeters(ref: BorderRef, lon: number, lat: number): number {
  return ref.layer.get().distance(ref.feature, lon, lat);
}
