import { basename, join } from 'node:path';
import type { Position } from '../geo/types.js';
import { labelPoint } from './label-point.js';
import { readPolygonLayer, writePolygonLayer } from './layer-files.js';
import { type ImportSummary, type LayerManifest, PACK_FORMAT } from './manifest.js';
import { packPaths, readJson, replaceDirectory, writeJson } from './pack-files.js';
import { encodeFlatPolygons, type FlatPolygon, featureParts, flatPolygons } from './polygon-file.js';
import type { PostalAreaRecord } from './records.js';
import { SOURCES, sourceFrom } from './sources.js';
import { openZctaSource, type ZctaProps } from './zcta-sources.js';

/** Options of {@link importPostal}. */
export interface ImportPostalOptions {
  /** Called as features are read: stage (the file), done and total (features, when the file tells). */
  onProgress?: (stage: string, done: number, total: number) => void;
}

interface Area {
  parts: FlatPolygon[];
  point: Position;
}

// About a hundred progress lines at most per file: a line per feature would flood a log.
const PROGRESS_STEPS = 100;

/**
 * Imports ZCTA polygons into `<dataDir>/pack/postal/`: each input a GeoJSON FeatureCollection, a shapefile
 * or the Census Bureau's zipped shapefile as published (`tl_2020_us_zcta520.zip`); the code is read from
 * `ZCTA5CE20`, `ZCTA5CE10`, `GEOID20` or `GEOID10`. Each file adds its codes to those already imported and
 * replaces only the codes it has itself (a second state's file adds that state). Where these polygons cover
 * a point they replace the nearest-ZIP-point approximation. Features that are not polygons or have no
 * 5-digit code are skipped and counted; an input that is not ZCTA data is rejected with an error and the
 * pack is left as it was.
 */
export async function importPostal(
  dataDir: string,
  inputs: string | string[],
  opts: ImportPostalOptions = {},
): Promise<ImportSummary> {
  const started = Date.now();
  const files = typeof inputs === 'string' ? [inputs] : inputs;
  const byCode = new Map<string, Area>();
  let skipped = 0;
  for (const file of files) {
    const read = await readAreas(file, opts.onProgress);
    for (const [code, area] of read.areas) byCode.set(code, area);
    skipped += read.skipped;
  }

  const { postal } = packPaths(dataDir);
  const earlier = await readPolygonLayer<PostalAreaRecord>(postal, 'postal');
  let kept = 0;
  const areas = new Map(byCode);
  if (earlier) {
    const parts = featureParts(earlier.index.set, earlier.records.length);
    earlier.records.forEach((r, i) => {
      if (areas.has(r.code)) return;
      areas.set(r.code, { parts: parts[i]!, point: [r.lon, r.lat] });
      kept++;
    });
  }
  const sorted = [...areas].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const records: PostalAreaRecord[] = sorted.map(([code, { point }]) => ({ code, lon: point[0], lat: point[1] }));
  const earlierInputs = earlier && kept > 0 ? await earlierInput(postal) : [];
  const manifest: LayerManifest = {
    version: PACK_FORMAT,
    layer: 'postal',
    builtAt: new Date().toISOString(),
    counts: { postalAreas: records.length, imported: byCode.size, keptFromEarlier: kept, skippedFeatures: skipped },
    sources: [sourceFrom(SOURCES.operatorPostal)],
    notes: [],
    input: [...new Set([...earlierInputs, ...files.map((f) => basename(f))])].join(', '),
  };
  const set = encodeFlatPolygons(sorted.map(([, a]) => a.parts));
  await replaceDirectory(postal, async (dir) => {
    await writePolygonLayer(dir, 'postal', { records, set });
    await writeJson(join(dir, 'manifest.json'), manifest);
  });
  return { ...manifest, packDir: postal, durationMs: Date.now() - started };
}

/** The codes of one input and their polygons (a code split over several features gets all their parts). */
async function readAreas(
  file: string,
  onProgress: ImportPostalOptions['onProgress'],
): Promise<{ areas: Map<string, Area>; skipped: number }> {
  const source = await openZctaSource(file);
  const name = basename(file);
  const areas = new Map<string, Area>();
  let skipped = 0;
  let done = 0;
  const step = Math.max(1, Math.ceil(source.total / PROGRESS_STEPS));
  try {
    for await (const f of source.features) {
      done++;
      if (onProgress && source.total > 0 && (done % step === 0 || done === source.total))
        onProgress(`reading ${name}`, Math.min(done, source.total), source.total);
      const code = zctaCode(f.properties);
      const g = f.geometry;
      if (!code || !g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) {
        skipped++;
        continue;
      }
      const coords = g.coordinates as Position[][] | Position[][][];
      const parts = flatPolygons(coords);
      const seen = areas.get(code);
      if (seen) seen.parts.push(...parts);
      else areas.set(code, { parts, point: internalPoint(f.properties) ?? labelPoint(asMulti(coords)) });
    }
  } finally {
    await source.close();
  }
  if (areas.size === 0) {
    throw new Error(`${file}: no Polygon/MultiPolygon feature with a ZCTA5CE10, ZCTA5CE20 or GEOID code`);
  }
  return { areas, skipped };
}

async function earlierInput(dir: string): Promise<string[]> {
  try {
    const m = await readJson<LayerManifest>(join(dir, 'manifest.json'));
    return (m.input ?? '').split(', ').filter(Boolean);
  } catch {
    return [];
  }
}

function asMulti(c: Position[][] | Position[][][]): Position[][][] {
  return Array.isArray(c[0]?.[0]?.[0]) ? (c as Position[][][]) : [c as Position[][]];
}

function zctaCode(p: ZctaProps): string | null {
  for (const key of ['ZCTA5CE20', 'ZCTA5CE10', 'GEOID20', 'GEOID10']) {
    const v = p?.[key];
    // GEOID10 of state-split files is state FIPS + ZCTA (`1596813`): the ZCTA is the last five digits.
    if (typeof v === 'string' && /^(\d{2})?\d{5}$/.test(v)) return v.slice(-5);
  }
  return null;
}

function internalPoint(p: ZctaProps): Position | null {
  const lat = Number(p?.INTPTLAT20 ?? p?.INTPTLAT10);
  const lon = Number(p?.INTPTLON20 ?? p?.INTPTLON10);
  return Number.isFinite(lat) && Number.isFinite(lon) && (lat !== 0 || lon !== 0) ? [lon, lat] : null;
}
