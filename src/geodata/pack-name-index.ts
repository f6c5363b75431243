import type { LocalityTable } from './locality-table.js';
import { NameFlag, NameIndex, NameKind } from './name-index.js';
import { normalizeName } from './normalize-name.js';
import type { CountryRecord, CountyRecord, PostalAreaRecord, StateRecord } from './records.js';
import type { ZipTable } from './zip-table.js';

// Everyday names the ISO/country-coder names do not cover.
const COUNTRY_ALIASES: Readonly<Record<string, string[]>> = {
  US: ['usa', 'united states of america', 'america'],
  GB: ['uk', 'great britain', 'britain', 'england'],
  NL: ['holland'],
  CZ: ['czech republic'],
  KR: ['korea'],
  RU: ['russian federation'],
  CI: ['ivory coast'],
};

// County names carry their kind; people also type them without it (`Honolulu` for Honolulu County).
const COUNTY_AFFIXES =
  /^(city and county of|city and borough of|city of) | (county|parish|borough|census area|municipality|municipio|city and borough)$/;

/** What the pack's name index is built from. */
export interface NameSources {
  localities: LocalityTable;
  zips: ZipTable;
  postalAreas: readonly PostalAreaRecord[];
  counties: readonly CountyRecord[];
  states: readonly StateRecord[];
  admin1: readonly StateRecord[];
  countries: readonly CountryRecord[];
}

/**
 * Builds the prefix index over every name and code the coarse geocoder answers. The world importer stores it
 * (sorting 300,000 names takes a second); opening the pack only adds the operator's postal areas.
 */
export function buildPackNameIndex(src: NameSources): NameIndex {
  return NameIndex.build((add) => {
    const { columns } = src.localities;
    for (let i = 0; i < src.localities.count; i++) {
      add(normalizeName(columns.name.get(i)!), NameKind.locality, i);
      const alt = columns.altKeys.get(i);
      if (alt) for (const key of alt.split('|')) add(key, NameKind.locality, i, NameFlag.alternate);
    }
    for (let i = 0; i < src.zips.count; i++) add(src.zips.columns.code.get(i)!, NameKind.zip, i);
    addPostalAreas(add, src.postalAreas, src.zips);
    src.counties.forEach((c, i) => {
      const key = normalizeName(c.name);
      add(key, NameKind.county, i);
      const bare = key.replace(COUNTY_AFFIXES, '');
      if (bare !== key) add(bare, NameKind.county, i);
    });
    src.states.forEach((s, i) => {
      add(normalizeName(s.name), NameKind.state, i);
      add(s.code.toLowerCase(), NameKind.state, i, NameFlag.code);
    });
    // Admin-1 codes are left out: two letters name dozens of them worldwide (HI is Hainan as well as Hawaii),
    // so a code query would drown; they still qualify names (`london, on`) through the place's context.
    src.admin1.forEach((s, i) => {
      add(normalizeName(s.name), NameKind.admin1, i);
    });
    src.countries.forEach((c, i) => {
      add(normalizeName(c.name), NameKind.country, i);
      add(c.code.toLowerCase(), NameKind.country, i, NameFlag.code);
      if (c.code3) add(c.code3.toLowerCase(), NameKind.country, i, NameFlag.code);
      for (const alias of COUNTRY_ALIASES[c.code] ?? []) add(alias, NameKind.country, i);
    });
  });
}

/** The index of the operator's ZCTA codes that the ZIP table lacks, to merge into the stored world index. */
export function buildPostalAreaIndex(postalAreas: readonly PostalAreaRecord[], zips: ZipTable): NameIndex {
  return NameIndex.build((add) => addPostalAreas(add, postalAreas, zips));
}

function addPostalAreas(
  add: (key: string, kind: NameKind, id: number, flags?: number) => void,
  postalAreas: readonly PostalAreaRecord[],
  zips: ZipTable,
): void {
  postalAreas.forEach((p, i) => {
    if (zips.find(p.code) < 0) add(p.code, NameKind.postalArea, i);
  });
}
