import type { Feature, Geometry } from 'geojson';
import GeoJSONVT, { type LegacyFeature } from 'geojson-vt';
import { fromGeojsonVt } from 'vt-pbf';
import { TILE_MAX_ZOOM, type TileCoord } from './tile-grid.js';

/** A feature for the map: its tile layer and the lowest zoom it shows at, with what the style reads. */
export type MapFeature = Feature<Geometry, { layer: string; minzoom: number; [key: string]: unknown }>;

/** The features of one layer shown from one zoom on, cut by their own geojson-vt index. */
interface LayerGroup {
  layer: string;
  minzoom: number;
  index: GeoJSONVT;
}

/** Tile units per side, and the margin kept around a tile so lines and labels join across edges. */
export const EXTENT = 4096;
const BUFFER = 64;

/** Tiles cut from layers grouped by name; `encode` of one tile's layers gives its vector tile bytes. */
export type TileLayers = Record<string, { features: LegacyFeature[] }>;

/**
 * Cuts vector-tile layers from features held in memory. Features are grouped by layer and lowest zoom,
 * one geojson-vt index per group, so a low-zoom tile never walks the footways it leaves out.
 * Down to `maxZoom` geojson-vt cuts (every tile to `indexMaxZoom` at once, deeper ones on request
 * from the nearest kept parent, which it keeps too); above it a tile is its `maxZoom` ancestor scaled up (see {@link overzoom}), which keeps the
 * cut of a deep tile short for coarse data such as the world pack's borders.
 */
export class TileSet {
  private readonly groups: LayerGroup[] = [];

  private readonly maxZoom: number;

  /**
   * `maxZoom`: the deepest zoom cut (deeper tiles scale their ancestor up); `indexMaxZoom`: the zoom
   * down to which every tile is cut at once, so a request drills only the levels below it.
   */
  constructor(features: Iterable<MapFeature>, opts: { maxZoom?: number; indexMaxZoom?: number } = {}) {
    const maxZoom = opts.maxZoom ?? TILE_MAX_ZOOM;
    const indexMaxZoom = Math.min(opts.indexMaxZoom ?? 5, maxZoom);
    this.maxZoom = maxZoom;
    const byGroup = new Map<string, { layer: string; minzoom: number; features: MapFeature[] }>();
    for (const f of features) {
      const { layer, minzoom, ...rest } = f.properties;
      const key = `${layer}\u0000${minzoom}`;
      let g = byGroup.get(key);
      if (!g) {
        g = { layer, minzoom, features: [] };
        byGroup.set(key, g);
      }
      // The tile carries what the style reads, not the grouping keys.
      g.features.push({ ...f, properties: rest as MapFeature['properties'] });
    }
    for (const g of byGroup.values()) {
      const index = new GeoJSONVT(
        { type: 'FeatureCollection', features: g.features },
        // indexMaxPoints 0: split every tile down to indexMaxZoom, however few points it has.
        { maxZoom, indexMaxZoom, indexMaxPoints: 0, tolerance: 3, extent: EXTENT, buffer: BUFFER },
      );
      this.groups.push({ layer: g.layer, minzoom: g.minzoom, index });
    }
  }

  /** The layers with features in a tile (empty when none). */
  layers({ z, x, y }: TileCoord): TileLayers {
    const layers: TileLayers = {};
    const dz = Math.max(0, z - this.maxZoom);
    const [az, ax, ay] = [z - dz, x >> dz, y >> dz];
    for (const g of this.groups) {
      if (g.minzoom > z) continue;
      const t = g.index.getTile(az, ax, ay);
      if (!t || t.features.length === 0) continue;
      const features = dz === 0 ? t.features : overzoom(t.features, dz, x - (ax << dz), y - (ay << dz));
      if (features.length === 0) continue;
      const into = layers[g.layer];
      if (into) for (const f of features) into.features.push(f);
      else layers[g.layer] = { features: [...features] };
    }
    return layers;
  }

  /** The encoded tile, or null when no layer has a feature there. */
  tile(c: TileCoord): Uint8Array | null {
    return encodeLayers(this.layers(c));
  }
}

/** Vector tile bytes of some layers, or null when there are none. */
export function encodeLayers(layers: TileLayers): Uint8Array | null {
  return Object.keys(layers).length === 0 ? null : fromGeojsonVt(layers, { version: 2, extent: EXTENT });
}

/**
 * The features of an ancestor tile `dz` zooms up, in the coordinates of its descendant at offset
 * (`ox`, `oy`) among the 2^dz × 2^dz below it. Points outside the tile are dropped (a label must come
 * from one tile only); lines and areas are kept when their box meets the tile and its margin, and
 * the renderer clips what lies beyond the tile's edge.
 */
function overzoom(features: readonly LegacyFeature[], dz: number, ox: number, oy: number): LegacyFeature[] {
  const s = 2 ** dz;
  const dx = ox * EXTENT;
  const dy = oy * EXTENT;
  const out: LegacyFeature[] = [];
  for (const f of features) {
    if (f.type === 1) {
      const geometry = f.geometry
        .map(([x, y]) => [x * s - dx, y * s - dy] as [number, number])
        .filter(([x, y]) => x >= 0 && x < EXTENT && y >= 0 && y < EXTENT);
      if (geometry.length > 0) out.push({ ...f, geometry });
      continue;
    }
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    const geometry = f.geometry.map((ring) =>
      ring.map(([x, y]) => {
        const p: [number, number] = [x * s - dx, y * s - dy];
        if (p[0] < minX) minX = p[0];
        if (p[0] > maxX) maxX = p[0];
        if (p[1] < minY) minY = p[1];
        if (p[1] > maxY) maxY = p[1];
        return p;
      }),
    );
    if (maxX < -BUFFER || maxY < -BUFFER || minX > EXTENT + BUFFER || minY > EXTENT + BUFFER) continue;
    out.push({ ...f, geometry });
  }
  return out;
}
