import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Feature, Geometry } from 'geojson';
import type { Position } from '../geo/types.js';
import { labelPoint } from './label-point.js';
import { writePolygonLayer } from './layer-files.js';
import { type ImportSummary, type LayerManifest, PACK_FORMAT } from './manifest.js';
import { packPaths, replaceDirectory, writeJson } from './pack-files.js';
import type { PolygonCoordinates } from './polygon-file.js';
import type { PostalAreaRecord } from './records.js';
import { SOURCES, sourceFrom } from './sources.js';

type Props = Record<string, unknown> | null;

/**
 * Imports ZCTA polygons (a GeoJSON FeatureCollection of Census ZCTA5 2010 or 2020 features; the code is read
 * from `ZCTA5CE20`, `ZCTA5CE10`, `GEOID20` or `GEOID10`) into `<dataDir>/pack/postal/`, replacing any earlier
 * postal import. Where these polygons cover a point they replace the nearest-ZIP-point approximation.
 * Features that are not polygons or have no 5-digit code are skipped and counted; a file that is not GeoJSON
 * or has no usable feature is rejected with an error and the pack is left as it was.
 */
export async function importPostal(dataDir: string, geojsonPath: string): Promise<ImportSummary> {
  const started = Date.now();
  const features = readFeatures(await readFile(geojsonPath, 'utf8'), geojsonPath);
  const byCode = new Map<string, { polygons: Position[][][]; point: Position | null }>();
  let skipped = 0;
  for (const f of features) {
    const code = zctaCode(f.properties);
    const g = f.geometry;
    if (!code || !g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) {
      skipped++;
      continue;
    }
    const entry = byCode.get(code) ?? { polygons: [], point: internalPoint(f.properties) };
    if (g.type === 'Polygon') entry.polygons.push(g.coordinates as Position[][]);
    else entry.polygons.push(...(g.coordinates as Position[][][]));
    byCode.set(code, entry);
  }
  if (byCode.size === 0) {
    throw new Error(`${geojsonPath}: no Polygon/MultiPolygon feature with a ZCTA5CE10, ZCTA5CE20 or GEOID code`);
  }
  const records: PostalAreaRecord[] = [];
  const geometries: PolygonCoordinates[] = [];
  for (const [code, { polygons, point }] of [...byCode].sort(([a], [b]) => a.localeCompare(b))) {
    const [lon, lat] = point ?? labelPoint(polygons);
    records.push({ code, lon, lat });
    geometries.push(polygons);
  }
  const manifest: LayerManifest = {
    version: PACK_FORMAT,
    layer: 'postal',
    builtAt: new Date().toISOString(),
    counts: { postalAreas: records.length, skippedFeatures: skipped },
    sources: [sourceFrom(SOURCES.operatorPostal)],
    notes: [],
    input: basename(geojsonPath),
  };
  const { postal } = packPaths(dataDir);
  await replaceDirectory(postal, async (dir) => {
    await writePolygonLayer(dir, 'postal', { records, geometries });
    await writeJson(join(dir, 'manifest.json'), manifest);
  });
  return { ...manifest, packDir: postal, durationMs: Date.now() - started };
}

function readFeatures(text: string, path: string): Feature<Geometry | null, Props>[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${path}: not GeoJSON (the file is not valid JSON)`);
  }
  const fc = doc as { type?: unknown; features?: unknown };
  if (fc?.type !== 'FeatureCollection' || !Array.isArray(fc.features)) {
    throw new Error(`${path}: not GeoJSON: expected a FeatureCollection with a features array`);
  }
  return fc.features as Feature<Geometry | null, Props>[];
}

function zctaCode(p: Props): string | null {
  for (const key of ['ZCTA5CE20', 'ZCTA5CE10', 'GEOID20', 'GEOID10']) {
    const v = p?.[key];
    // GEOID10 of state-split files is state FIPS + ZCTA (`1596813`): the ZCTA is the last five digits.
    if (typeof v === 'string' && /^(\d{2})?\d{5}$/.test(v)) return v.slice(-5);
  }
  return null;
}

function internalPoint(p: Props): Position | null {
  const lat = Number(p?.INTPTLAT20 ?? p?.INTPTLAT10);
  const lon = Number(p?.INTPTLON20 ?? p?.INTPTLON10);
  return Number.isFinite(lat) && Number.isFinite(lon) && (lat !== 0 || lon !== 0) ? [lon, lat] : null;
}
