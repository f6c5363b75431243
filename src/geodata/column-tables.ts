import { readFile, writeFile } from 'node:fs/promises';
import KDBush from 'kdbush';
import type { NameIndexData } from './name-index.js';
import type { LocalityColumns, ZipColumns } from './records.js';
import type { StringColumn } from './string-column.js';
import { readTable, type Table, writeTable } from './table-file.js';

type LocalityMeta = Pick<LocalityColumns, 'admin1Names' | 'admin2Names'>;

/** Writes localities as a table file. */
export async function writeLocalities(path: string, c: LocalityColumns): Promise<void> {
  const { name, altKeys, areaKeys, featureCodes, geonameId, lon, lat, population, area, feature, admin1Area } = c;
  const meta: LocalityMeta = { admin1Names: c.admin1Names, admin2Names: c.admin2Names };
  await writeTable(path, {
    strings: { name, altKeys, areaKeys, featureCodes },
    numbers: { geonameId, lon, lat, population, area, feature, admin1Area },
    meta,
  });
}

/** Reads localities written by {@link writeLocalities}. */
export async function readLocalities(path: string): Promise<LocalityColumns> {
  const t = await readTable<LocalityMeta>(path);
  return {
    name: strings(t, 'name'),
    altKeys: strings(t, 'altKeys'),
    // Small (tens of thousands, a few dozen) and split further by LocalityTable: kept as arrays.
    areaKeys: strings(t, 'areaKeys').toArray(),
    featureCodes: strings(t, 'featureCodes').toArray(),
    geonameId: numbers(t, 'geonameId', Uint32Array),
    lon: numbers(t, 'lon', Float64Array),
    lat: numbers(t, 'lat', Float64Array),
    population: numbers(t, 'population', Uint32Array),
    area: numbers(t, 'area', Uint32Array),
    feature: numbers(t, 'feature', Uint8Array),
    admin1Area: numbers(t, 'admin1Area', Uint32Array),
    ...t.meta,
  };
}

/** Writes ZIP codes as a table file. */
export async function writeZips(path: string, c: ZipColumns): Promise<void> {
  const { code, city, stateCode, county, countyFips, lon, lat, zcta } = c;
  await writeTable(path, {
    strings: { code, city, stateCode, county, countyFips },
    numbers: { lon, lat, zcta },
    meta: {},
  });
}

/** Reads ZIP codes written by {@link writeZips}. */
export async function readZips(path: string): Promise<ZipColumns> {
  const t = await readTable(path);
  return {
    code: strings(t, 'code'),
    city: strings(t, 'city'),
    stateCode: strings(t, 'stateCode'),
    county: strings(t, 'county'),
    countyFips: strings(t, 'countyFips'),
    lon: numbers(t, 'lon', Float64Array),
    lat: numbers(t, 'lat', Float64Array),
    zcta: numbers(t, 'zcta', Uint8Array),
  };
}

/** A string column of a table; throws naming the column when it is missing (a pack of another format). */
export function strings(t: Table, name: string): StringColumn {
  const column = t.strings[name];
  if (!column) throw new Error(`pack table lacks column ${name}: rebuild the pack`);
  return column;
}

/** A number column of a table, checked to be of the expected array type. */
export function numbers<T extends Float64Array | Uint32Array | Uint8Array>(
  t: Table,
  name: string,
  type: { new (...args: never[]): T },
): T {
  const column = t.numbers[name];
  if (!(column instanceof type)) throw new Error(`pack table lacks column ${name}: rebuild the pack`);
  return column;
}

/** Writes the name index as a table file. */
export async function writeNames(path: string, data: NameIndexData): Promise<void> {
  const { keys, kinds, ids, flags } = data;
  await writeTable(path, { strings: { keys }, numbers: { kinds, ids, flags }, meta: {} });
}

/** Reads a name index written by {@link writeNames}. */
export async function readNames(path: string): Promise<NameIndexData> {
  const t = await readTable(path);
  return {
    keys: strings(t, 'keys'),
    kinds: numbers(t, 'kinds', Uint8Array),
    ids: numbers(t, 'ids', Uint32Array),
    flags: numbers(t, 'flags', Uint8Array),
  };
}

/** Writes a kdbush index as its raw buffer, so opening the pack skips building the tree. */
export async function writePointIndex(path: string, index: KDBush): Promise<void> {
  await writeFile(path, new Uint8Array(index.data));
}

/** Reads an index written by {@link writePointIndex}. */
export async function readPointIndex(path: string): Promise<KDBush> {
  const bytes = await readFile(path);
  // kdbush reads its header at offset 0 of the ArrayBuffer: give it a buffer of its own.
  return KDBush.from(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}
