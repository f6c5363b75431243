import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openRoadGraphs, type RoadGraphs } from '../../routing/graph/road-graphs.js';
import { type LayerManifest, PACK_FORMAT } from '../manifest.js';
import { packPaths, readJson } from '../pack-files.js';
import { type AddressLayer, openAddressLayer } from './addresses/address-layer.js';
import { type BoundaryLayers, openBoundaryLayers } from './boundaries/boundary-layer.js';
import { openPlaceLayer, type PlaceLayer } from './places/place-layer.js';

/** One imported OpenStreetMap region, opened: each part is null when its files are absent. */
export interface OsmRegion {
  /** Folder name under `pack/osm/`. */
  readonly name: string;
  readonly dir: string;
  readonly manifest: LayerManifest;
  readonly places: PlaceLayer | null;
  readonly addresses: AddressLayer | null;
  readonly roads: RoadGraphs | null;
  /** Administrative areas with exact borders (country, state, county, locality). */
  readonly boundaries: BoundaryLayers | null;
}

/** The region folders that hold a finished import (a manifest), sorted by name. */
export function osmRegionDirs(dataDir: string): string[] {
  const root = packPaths(dataDir).osm;
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && existsSync(join(root, d.name, 'manifest.json')))
    .map((d) => join(root, d.name))
    .sort();
}

/** Opens every imported region; throws when one was written by another pack format. */
export async function openOsmRegions(dataDir: string): Promise<OsmRegion[]> {
  return Promise.all(
    osmRegionDirs(dataDir).map(async (dir) => {
      const manifest = await readJson<LayerManifest>(join(dir, 'manifest.json'));
      if (manifest.version !== PACK_FORMAT) {
        throw new Error(
          `OSM region in ${dir} has format ${manifest.version}, this build reads ${PACK_FORMAT}: import it again`,
        );
      }
      const [places, addresses, roads, boundaries] = await Promise.all([
        openPlaceLayer(dir),
        openAddressLayer(dir),
        openRoadGraphs(dir),
        openBoundaryLayers(dir),
      ]);
      return { name: manifest.region ?? dir, dir, manifest, places, addresses, roads, boundaries };
    }),
  );
}
