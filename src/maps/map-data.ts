import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Position } from '../geo/types.js';
import { packPaths, readJson } from '../geodata/pack-files.js';
import { type PolygonSet, readPolygonFile } from '../geodata/polygon-file.js';
import type { CountryRecord, CountyRecord, StateRecord } from '../geodata/records.js';
import type { MapFeature } from './tile-set.js';

/**
 * What the map cuts from the world pack's shapes (localities are read from their table per tile, see
 * locality-labels.ts; imported OSM regions bring their own tile archives).
 */
export async function loadWorldMapFeatures(dataDir: string): Promise<MapFeature[]> {
  const out: MapFeature[] = [];
  const world = packPaths(dataDir).world;
  if (existsSync(join(world, 'manifest.json'))) await addWorld(world, out);
  return out;
}

async function addWorld(dir: string, out: MapFeature[]): Promise<void> {
  const [countries, states, counties] = await Promise.all([
    readLayer<CountryRecord>(dir, 'countries'),
    readLayer<StateRecord>(dir, 'states'),
    readLayer<CountyRecord>(dir, 'counties'),
  ]);
  // Country outlines are country-coder's generalized borders, which reach out to sea; the US is drawn
  // from the Census state shapes instead (coastlines), so the style skips its country fill.
  polygons(countries, 'countries', 0, (r) => ({ code: r.code, name: r.name }), out);
  polygons(states, 'states', 0, (r) => ({ code: r.code, name: r.name }), out);
  polygons(counties, 'counties', 6, (r) => ({ fips: r.fips, name: r.name }), out);
  for (const r of countries.records) {
    out.push(point([r.lon, r.lat], { layer: 'country_labels', minzoom: 0, code: r.code, name: r.name }));
  }
  for (const r of states.records) {
    out.push(point([r.lon, r.lat], { layer: 'state_labels', minzoom: 4, code: r.code, name: r.name }));
  }
}

interface Layer<R> {
  records: R[];
  set: PolygonSet;
}

async function readLayer<R>(dir: string, name: string): Promise<Layer<R>> {
  const [{ records }, set] = await Promise.all([
    readJson<{ records: R[] }>(join(dir, `${name}.json`)),
    readPolygonFile(join(dir, `${name}.bin`)),
  ]);
  return { records, set };
}

/** One MultiPolygon feature per record, from the pack's flat polygon arrays. */
function polygons<R>(
  layer: Layer<R>,
  name: string,
  minzoom: number,
  props: (r: R) => Record<string, unknown>,
  out: MapFeature[],
): void {
  const { coords, ringStart, partRingStart, partFeature } = layer.set;
  const parts: Position[][][][] = layer.records.map(() => []);
  for (let part = 0; part < partFeature.length; part++) {
    const rings: Position[][] = [];
    for (let ring = partRingStart[part]!; ring < partRingStart[part + 1]!; ring++) {
      const r: Position[] = [];
      for (let v = ringStart[ring]!; v < ringStart[ring + 1]!; v++) r.push([coords[v * 2]!, coords[v * 2 + 1]!]);
      rings.push(r);
    }
    parts[partFeature[part]!]?.push(rings);
  }
  layer.records.forEach((r, i) => {
    if (parts[i]!.length === 0) return;
    out.push({
      type: 'Feature',
      geometry: { type: 'MultiPolygon', coordinates: parts[i]! },
      properties: { layer: name, minzoom, ...props(r) },
    });
  });
}

function point(at: Position, properties: MapFeature['properties']): MapFeature {
  return { type: 'Feature', geometry: { type: 'Point', coordinates: at }, properties };
}
