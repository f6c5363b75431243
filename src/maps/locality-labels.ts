import { join } from 'node:path';
import type { LegacyFeature } from 'geojson-vt';
import type KDBush from 'kdbush';
import { readLocalities, readPointIndex } from '../geodata/column-tables.js';
import type { LocalityColumns } from '../geodata/records.js';
import type { TileCoord } from './tile-grid.js';
import { EXTENT } from './tile-set.js';

/**
 * Locality labels by population: the larger the place, the lower the zoom it first shows at, so a
 * world view carries capitals and metropolises and a county view every village.
 */
const TIERS: ReadonlyArray<[minPopulation: number, minzoom: number]> = [
  [2_000_000, 2],
  [500_000, 4],
  [100_000, 6],
  [20_000, 8],
  [5_000, 9],
  [0, 10],
];
/** Sections of a city (GeoNames PPLX) are neighbourhoods: shown late, below the cities around them. */
const NEIGHBOURHOOD_MINZOOM = 12;

/**
 * The `localities` layer of a tile, read from the pack's locality table and KD-tree (200,000 points)
 * rather than cut by geojson-vt: a range query per tile costs microseconds and nothing to build.
 */
export class LocalityLabels {
  private constructor(
    private readonly places: LocalityColumns,
    private readonly index: KDBush,
    private readonly minzoom: Uint8Array,
    private readonly neighbourhood: Uint8Array,
  ) {}

  static async open(worldDir: string): Promise<LocalityLabels> {
    const [places, index] = await Promise.all([
      readLocalities(join(worldDir, 'localities.bin')),
      readPointIndex(join(worldDir, 'localities.kdbush')),
    ]);
    const pplx = places.featureCodes.indexOf('PPLX');
    const minzoom = new Uint8Array(places.population.length);
    const neighbourhood = new Uint8Array(places.population.length);
    for (let i = 0; i < minzoom.length; i++) {
      const pop = places.population[i]!;
      const tier = TIERS.find(([min]) => pop >= min)?.[1] ?? 10;
      neighbourhood[i] = places.feature[i] === pplx ? 1 : 0;
      minzoom[i] = neighbourhood[i] ? Math.max(tier, NEIGHBOURHOOD_MINZOOM) : tier;
    }
    return new LocalityLabels(places, index, minzoom, neighbourhood);
  }

  /** The places inside the tile shown at its zoom, in tile coordinates. */
  features({ z, x, y }: TileCoord): LegacyFeature[] {
    const n = 2 ** z;
    const west = (x / n) * 360 - 180;
    const east = ((x + 1) / n) * 360 - 180;
    const north = latOf(y / n);
    const south = latOf((y + 1) / n);
    const out: LegacyFeature[] = [];
    for (const i of this.index.range(west, south, east, north)) {
      if (this.minzoom[i]! > z) continue;
      const lon = this.places.lon[i]!;
      const lat = this.places.lat[i]!;
      const px = Math.floor((((lon + 180) / 360) * n - x) * EXTENT);
      const py = Math.floor((mercatorY(lat) * n - y) * EXTENT);
      // A place on the tile's east or south edge belongs to the next tile.
      if (px < 0 || px >= EXTENT || py < 0 || py >= EXTENT) continue;
      out.push({
        type: 1,
        geometry: [[px, py]],
        tags: {
          name: this.places.name.get(i) ?? '',
          population: this.places.population[i]!,
          kind: this.neighbourhood[i] ? 'neighborhood' : 'locality',
        },
      });
    }
    return out;
  }
}

/** Web Mercator y in 0…1 (north to south) of a latitude. */
function mercatorY(lat: number): number {
  const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
}

function latOf(my: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - 2 * my))) * 180) / Math.PI;
}
