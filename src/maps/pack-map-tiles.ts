import type { PackSource } from '../geodata/live-pack.js';
import { SOURCES } from '../geodata/sources.js';
import { MapTiles } from './map-tiles.js';

const OSM_CREDIT = '<a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a>';

/** How long the tiles of a replaced pack stay open for the requests still using them. */
const RETIRE_AFTER_MS = 30_000;

/**
 * The map tiles of whichever pack the server holds now: a new pack (an import replaced a folder)
 * gets new tiles and an empty cache; the old ones close a little later.
 */
export class PackMapTiles {
  private pack: object | null = null;
  private tiles: MapTiles | null = null;

  constructor(private readonly source: PackSource) {}

  /** The tiles, or null (with `unavailableReason`) when no pack is open. */
  current(): MapTiles | null {
    const pack = this.source.current();
    if (pack !== this.pack) {
      const old = this.tiles;
      if (old) setTimeout(() => old.close(), RETIRE_AFTER_MS).unref();
      this.pack = pack;
      this.tiles = pack
        ? new MapTiles(
            pack.dataDir,
            pack.osmRegions.map((r) => r.dir),
          )
        : null;
    }
    return this.tiles;
  }

  unavailableReason(): string {
    return this.source.unavailableReason();
  }

  /** The credit line of the map: the world pack's sources, and OpenStreetMap where a region shows. */
  attribution(): string {
    const credits = [SOURCES.countryCoder.text, SOURCES.usCensus.text, SOURCES.geonames.text];
    if ((this.current()?.regionCount ?? 0) > 0) credits.unshift(OSM_CREDIT);
    return credits.join(' | ');
  }

  close(): void {
    this.tiles?.close();
  }
}
