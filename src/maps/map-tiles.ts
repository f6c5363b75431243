import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { MAP_TILES_FILE } from './osm-map-features.js';
import { TileArchive } from './tile-archive.js';
import type { TileCoord } from './tile-grid.js';
import { WorldTileThread } from './world-tile-thread.js';

/** One tile as served: its bytes (null: nothing there) and the entity tag of those bytes. */
export interface ServedTile {
  data: Buffer | null;
  etag: string;
}

/** Kept tiles, by bytes: a few thousand typical tiles. */
const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The tiles of one opened pack: the world layers (cut on request on a thread) joined with the layers of
 * every imported OSM region whose archive holds the tile. A vector tile is a list of layers, so two
 * tiles' bytes concatenated are one tile with the layers of both. Served tiles are kept in memory
 * (LRU by size); concurrent requests for one tile share one cut.
 */
export class MapTiles {
  private readonly world: WorldTileThread;
  private readonly regions: TileArchive[];
  private readonly cache = new LRUCache<string, ServedTile>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (t) => (t.data?.length ?? 0) + 64,
  });
  private readonly inFlight = new Map<string, Promise<ServedTile>>();

  constructor(dataDir: string, regionDirs: readonly string[]) {
    this.world = new WorldTileThread(dataDir);
    this.regions = regionDirs
      .map((dir) => join(dir, MAP_TILES_FILE))
      .filter((path) => existsSync(path))
      .map((path) => new TileArchive(path));
  }

  /** The number of regions with a tile archive (the style credits OpenStreetMap when there is one). */
  get regionCount(): number {
    return this.regions.length;
  }

  /** The cached tile, if any: answers a warm request without a promise. */
  cached(c: TileCoord): ServedTile | undefined {
    return this.cache.get(`${c.z}/${c.x}/${c.y}`);
  }

  tile(c: TileCoord): Promise<ServedTile> {
    const key = `${c.z}/${c.x}/${c.y}`;
    const hit = this.cache.get(key);
    if (hit) return Promise.resolve(hit);
    let p = this.inFlight.get(key);
    if (!p) {
      p = this.cut(c).then(
        (t) => {
          this.inFlight.delete(key);
          this.cache.set(key, t);
          return t;
        },
        (err) => {
          this.inFlight.delete(key);
          throw err;
        },
      );
      this.inFlight.set(key, p);
    }
    return p;
  }

  /** Starts loading the world layers (a map asks its style before its tiles). */
  warm(): void {
    this.world.warm();
  }

  close(): void {
    this.world.close();
    for (const r of this.regions) r.close();
  }

  private async cut(c: TileCoord): Promise<ServedTile> {
    const parts: Uint8Array[] = [];
    const world = await this.world.tile(c);
    if (world) parts.push(world);
    for (const r of this.regions) {
      const t = r.tile(c);
      if (t) parts.push(t);
    }
    const data = parts.length === 0 ? null : Buffer.concat(parts);
    const etag = `"${createHash('sha1')
      .update(data ?? '')
      .digest('base64url')
      .slice(0, 22)}"`;
    return { data, etag };
  }
}
