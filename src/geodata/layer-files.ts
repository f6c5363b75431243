import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, writeJson } from './pack-files.js';
import {
  encodePolygons,
  type PolygonCoordinates,
  type PolygonSet,
  readPolygonFile,
  writePolygonFile,
} from './polygon-file.js';
import { PolygonLayer } from './polygon-layer.js';

/**
 * Records of a polygon layer and their geometries, index for index, as an importer produces them: as
 * GeoJSON coordinates, or already packed (feature `i` of `set` is record `i`).
 */
export type PolygonLayerBuild<R> =
  | { records: R[]; geometries: PolygonCoordinates[] }
  | { records: R[]; set: PolygonSet };

/** An opened polygon layer: its records and the point-in-polygon index over their shapes. */
export interface OpenPolygonLayer<R> {
  records: R[];
  index: PolygonLayer;
}

/** Writes `<name>.json` (the records) and `<name>.bin` (the polygons) into a pack folder. */
export async function writePolygonLayer<R>(dir: string, name: string, build: PolygonLayerBuild<R>): Promise<void> {
  if ('geometries' in build && build.records.length !== build.geometries.length)
    throw new Error(`${name}: records and geometries differ`);
  await writeJson(join(dir, `${name}.json`), { records: build.records });
  const set = 'set' in build ? build.set : encodePolygons(build.geometries);
  await writePolygonFile(join(dir, `${name}.bin`), set);
}

/** Opens a layer written by {@link writePolygonLayer}, or returns null when the pack folder lacks it. */
export async function readPolygonLayer<R>(dir: string, name: string): Promise<OpenPolygonLayer<R> | null> {
  const jsonPath = join(dir, `${name}.json`);
  if (!existsSync(jsonPath)) return null;
  const [{ records }, set] = await Promise.all([
    readJson<{ records: R[] }>(jsonPath),
    readPolygonFile(join(dir, `${name}.bin`)),
  ]);
  return { records, index: new PolygonLayer(set, records.length) };
}
