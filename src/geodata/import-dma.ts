import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { merge } from 'topojson-client';
import type { MultiPolygon } from 'topojson-specification';
import { writePolygonLayer } from './layer-files.js';
import { type ImportSummary, type LayerManifest, PACK_FORMAT } from './manifest.js';
import { packPaths, replaceDirectory, writeJson } from './pack-files.js';
import { requireInstalledPackage } from './package-dir.js';
import { parseCsv } from './parse-csv.js';
import type { PolygonCoordinates } from './polygon-file.js';
import type { DmaRecord } from './records.js';
import { SOURCES, sourceFrom } from './sources.js';
import { readUsAtlas } from './world/import-us-atlas.js';

const COLUMNS = ['county_fips', 'county_name', 'state', 'dma_code', 'dma_name'] as const;

/**
 * Imports the operator's county → DMA table (CSV with columns `county_fips,county_name,state,dma_code,
 * dma_name`) into `<dataDir>/pack/dma/`, replacing any earlier DMA import. Each DMA's area is the merge
 * of its us-atlas county shapes (`topojson-client` merge, so shared borders vanish). Throws, leaving the
 * pack as it was, when a column is missing, a row is malformed or no county FIPS is known.
 */
export async function importDma(dataDir: string, csvPath: string): Promise<ImportSummary> {
  const started = Date.now();
  const dmas = parseDmaTable(await readFile(csvPath, 'utf8'), csvPath);
  const usAtlas = requireInstalledPackage('us-atlas');
  const topology = await readUsAtlas(usAtlas);
  const countyGeometries = new Map(topology.objects.counties.geometries.map((g) => [String(g.id), g]));

  const unknown: string[] = [];
  const records: DmaRecord[] = [];
  const geometries: PolygonCoordinates[] = [];
  for (const dma of dmas.values()) {
    const shapes = dma.counties.flatMap((fips) => {
      const g = countyGeometries.get(fips);
      if (!g) unknown.push(fips);
      return g && (g.type === 'Polygon' || g.type === 'MultiPolygon') ? [g] : [];
    });
    if (shapes.length === 0) continue;
    const merged = merge(topology, shapes as MultiPolygon[]);
    records.push(dma);
    geometries.push(merged.coordinates as PolygonCoordinates);
  }
  if (records.length === 0) throw new Error(`${csvPath}: none of the county FIPS codes is a known US county`);

  const manifest: LayerManifest = {
    version: PACK_FORMAT,
    layer: 'dma',
    builtAt: new Date().toISOString(),
    counts: { dmas: records.length, counties: records.reduce((n, r) => n + r.counties.length, 0) - unknown.length },
    sources: [sourceFrom(SOURCES.operatorDma), sourceFrom(SOURCES.usCensus, usAtlas)],
    notes: unknown.length ? [`unknown county FIPS skipped: ${unknown.join(', ')}`] : [],
    input: basename(csvPath),
  };
  const { dma } = packPaths(dataDir);
  await replaceDirectory(dma, async (dir) => {
    await writePolygonLayer(dir, 'dma', { records, geometries });
    await writeJson(join(dir, 'manifest.json'), manifest);
  });
  return { ...manifest, packDir: dma, durationMs: Date.now() - started };
}

function parseDmaTable(text: string, path: string): Map<string, DmaRecord> {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error(`${path}: empty file, expected a header ${COLUMNS.join(',')}`);
  const names = header.map((h) => h.trim().toLowerCase());
  const missing = COLUMNS.filter((c) => !names.includes(c));
  if (missing.length)
    throw new Error(`${path}: missing column(s) ${missing.join(', ')}; expected ${COLUMNS.join(',')}`);
  const col = (row: string[], name: (typeof COLUMNS)[number]) => (row[names.indexOf(name)] ?? '').trim();
  const dmas = new Map<string, DmaRecord>();
  rows.forEach((row, i) => {
    const fips = col(row, 'county_fips');
    const code = col(row, 'dma_code');
    if (!/^\d{1,5}$/.test(fips) || !code) {
      throw new Error(`${path}: line ${i + 2}: county_fips must be 1-5 digits and dma_code non-empty`);
    }
    const dma = dmas.get(code) ?? { code, name: col(row, 'dma_name'), counties: [] };
    // Spreadsheets drop leading zeros (06025 → 6025); FIPS codes are always five digits.
    dma.counties.push(fips.padStart(5, '0'));
    dmas.set(code, dma);
  });
  if (dmas.size === 0) throw new Error(`${path}: no rows after the header`);
  return dmas;
}
