import { parentPort, workerData } from 'node:worker_threads';
import { packPaths } from '../geodata/pack-files.js';
import { LocalityLabels } from './locality-labels.js';
import { loadWorldMapFeatures } from './map-data.js';
import type { TileCoord } from './tile-grid.js';
import { encodeLayers, TileSet } from './tile-set.js';

/**
 * The thread that cuts the world pack's tiles (see world-tile-thread.ts): it reads the pack and builds
 * the geojson-vt indexes (seconds of work) away from the server's event loop, then answers one tile per
 * message. World shapes are cut down to zoom 10 and scaled up beyond (their 1:10m shapes hold no finer
 * detail); locality labels come from the pack's KD-tree.
 */
const WORLD_CUT_MAX_ZOOM = 10;

const { dataDir } = workerData as { dataDir: string };
const ready = Promise.all([
  loadWorldMapFeatures(dataDir).then(
    (features) => new TileSet(features, { maxZoom: WORLD_CUT_MAX_ZOOM, indexMaxZoom: 6 }),
  ),
  LocalityLabels.open(packPaths(dataDir).world),
]);

parentPort?.on('message', async ({ id, coord }: { id: number; coord: TileCoord }) => {
  try {
    const [shapes, localities] = await ready;
    const layers = shapes.layers(coord);
    const places = localities.features(coord);
    if (places.length > 0) layers.localities = { features: places };
    const data = encodeLayers(layers);
    parentPort?.postMessage({ id, data }, data ? [data.buffer as ArrayBuffer] : []);
  } catch (err) {
    parentPort?.postMessage({ id, error: (err as Error).message });
  }
});
