import { parentPort, workerData } from 'node:worker_threads';
import { loadWorldMapFeatures } from './map-data.js';
import type { TileCoord } from './tile-grid.js';
import { TileSet } from './tile-set.js';

/**
 * The thread that cuts the world pack's tiles (see world-tile-thread.ts): it reads the pack and builds
 * the geojson-vt indexes (seconds of work) away from the server's event loop, then answers one tile per
 * message. World layers are cut down to zoom 10 and scaled up beyond (their 1:10m shapes hold no finer
 * detail).
 */
const WORLD_CUT_MAX_ZOOM = 10;

const { dataDir } = workerData as { dataDir: string };
const ready = loadWorldMapFeatures(dataDir).then((features) => new TileSet(features, WORLD_CUT_MAX_ZOOM));

parentPort?.on('message', async ({ id, coord }: { id: number; coord: TileCoord }) => {
  try {
    const set = await ready;
    const data = set.tile(coord);
    parentPort?.postMessage({ id, data }, data ? [data.buffer as ArrayBuffer] : []);
  } catch (err) {
    parentPort?.postMessage({ id, error: (err as Error).message });
  }
});
