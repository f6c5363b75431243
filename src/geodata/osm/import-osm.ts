import { join } from 'node:path';
import { buildMapFeatures } from '../../maps/osm-map-features.js';
import { buildRoadGraphs } from '../../routing/graph/road-graphs.js';
import { type ImportSummary, type LayerManifest, PACK_FORMAT } from '../manifest.js';
import { packPaths, replaceDirectory, writeJson } from '../pack-files.js';
import { SOURCES } from '../sources.js';
import { buildAddressLayer } from './addresses/address-layer.js';
import { buildBoundaryLayer } from './boundaries/boundary-layer.js';
import { readOsmFile } from './osm-file.js';
import type { OsmLayerBuilder } from './osm-layer-builder.js';
import { buildPlaceLayer } from './places/place-layer.js';

/** The builders an OSM import runs, in order; each owns its own files in the region folder. */
const BUILDERS: ReadonlyArray<[string, OsmLayerBuilder]> = [
  ['places', buildPlaceLayer],
  ['addresses', buildAddressLayer],
  ['roads', buildRoadGraphs],
  ['map features', buildMapFeatures],
  ['boundaries', buildBoundaryLayer],
];

/** The region an extract is imported as: its file name without `.osm.pbf`, in lower-case slug form. */
export function osmRegionName(file: string): string {
  const base = (file.split(/[\\/]/).pop() ?? file).replace(/\.osm\.pbf$|\.pbf$/i, '');
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'region'
  );
}

/**
 * `import osm <file.osm.pbf>`: reads the extract once and builds `pack/osm/<region>/` (places, addresses
 * and streets, road graphs), swapping it in whole when every builder succeeded. Importing the same file
 * name again replaces that region; another file adds a region beside it.
 */
export async function importOsm(
  dataDir: string,
  pbfPath: string,
  opts: { onProgress?: (stage: string, done: number, total: number) => void } = {},
): Promise<ImportSummary> {
  const started = Date.now();
  const region = osmRegionName(pbfPath);
  const target = join(packPaths(dataDir).osm, region);
  const steps = BUILDERS.length + 1;
  const report = (step: number) => (message: string) => opts.onProgress?.(message, step, steps);
  let manifest: LayerManifest | undefined;
  await replaceDirectory(target, async (dir) => {
    const osm = await readOsmFile(pbfPath, report(0));
    const counts: Record<string, number> = {
      nodes: osm.nodeCount,
      ways: osm.ways.length,
      relations: osm.relations.length,
    };
    const notes: string[] = [];
    for (const [i, [name, build]] of BUILDERS.entries()) {
      report(i + 1)(`building ${name}`);
      const result = await build(osm, dir, report(i + 1));
      Object.assign(counts, result.counts);
      notes.push(...(result.notes ?? []));
    }
    counts.missingNodeRefs = osm.missingNodeRefs;
    if (osm.missingNodeRefs > 0) {
      notes.push(`${osm.missingNodeRefs} node references point outside the extract and were skipped`);
    }
    manifest = {
      version: PACK_FORMAT,
      layer: 'osm',
      region,
      builtAt: new Date().toISOString(),
      counts,
      sources: [SOURCES.openStreetMap],
      notes,
      input: osm.name,
    };
    // Written last: a reader that sees the manifest sees a complete folder.
    await writeJson(join(dir, 'manifest.json'), manifest);
  });
  opts.onProgress?.('done', steps, steps);
  return { ...(manifest as LayerManifest), packDir: target, durationMs: Date.now() - started };
}
